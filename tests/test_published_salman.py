"""The committed Salman comparison on Optdigits (``docs/studies/salman_digits.md``,
``salman_digits_b1000.csv`` and ``salman_digits_b20.csv``): the b = 20 information-gain rows
recomputed exactly (the same code path as the b = 1,000 run, which takes minutes), so that a
change that moves a published number fails the build (issue 25, item 5)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_digits

import modelmine as mm

ROOT = Path(__file__).resolve().parents[1]


def test_salman_optdigits_rows_recomputed():
    committed = pd.read_csv(ROOT / "docs" / "studies" / "salman_digits_b20.csv")
    committed = committed[committed.selector == "ig"].set_index("aggregation")
    X, y = load_digits(return_X_y=True)
    res = mm.evaluation.compare_aggregations(X.astype(np.float64), (y == 3).astype(np.int64),
                                  selectors="ig", n_folds=10, n_bootstraps=20,
                                  random_state=2022, n_jobs=1)
    ours = res.stability.set_index("aggregation")
    for column in ("spearman", "spearman_ordered", "canberra", "jaccard_top", "n_ties"):
        np.testing.assert_allclose(ours[column], committed.loc[ours.index, column],
                                   rtol=1e-9, atol=1e-12, err_msg=column)
    # the b = 1,000 table holds the five aggregations for both selectors
    big = pd.read_csv(ROOT / "docs" / "studies" / "salman_digits_b1000.csv")
    assert set(big.aggregation) == set(ours.index) and set(big.selector) == {"ig", "mrmr"}
    assert big.spearman.between(-1, 1).all() and (big.n_bootstraps == 1000).all()
