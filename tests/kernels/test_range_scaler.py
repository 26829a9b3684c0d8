"""The [0, 1] scaling in front of the protocol's "svm" and "1nn" classifiers
(``RangeScaler``, WEKA's Normalize), against scikit-learn's ``MinMaxScaler``, dense and
sparse (issue 38 item 6; the classifiers are tested by name in ``tests/evaluation/``).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.preprocessing import MinMaxScaler

from modelmine.evaluation._classifiers import RangeScaler


# ------------------------------------------------------------------ sparse data
def test_range_scaler_is_min_max_on_counts():
    rng = np.random.default_rng(0)
    counts = rng.poisson(0.3, size=(30, 12)).astype(float)
    counts[0] = 0  # every feature's minimum is 0, as in count data
    dense = RangeScaler().fit(counts).transform(counts)
    sparse = RangeScaler().fit(sp.csr_matrix(counts)).transform(sp.csr_matrix(counts))
    assert sp.issparse(sparse)
    np.testing.assert_allclose(sparse.toarray(), dense)
    np.testing.assert_allclose(dense, MinMaxScaler().fit_transform(counts))
