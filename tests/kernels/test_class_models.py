"""The per-class base models behind ``per_class=True`` (issue 26 item 1; issue 38 item 6),
on their own: each class's models are fitted on the pooled models' resamples (common random
numbers) and equal scikit-learn's ``f_classif`` (or the selector fitted alone) on each
resample's one-vs-rest labels. The per-class panels are tested with public names in
``tests/pipeline/test_per_class.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.feature_selection import f_classif

import modelmine as mm
from modelmine.base_models import check_run_data, fit_base_models, fit_class_models

CLASSES = ["a", "b", "c", "d"]


def _planted(seed=0, per=25, p=80):
    """Four classes; class k has markers 3k (up), 3k+1 (up) and 3k+2 (down)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(CLASSES, per)
    X = rng.normal(size=(y.size, p))
    for k, cls in enumerate(CLASSES):
        inside = y == cls
        X[inside, 3 * k] += 2.5
        X[inside, 3 * k + 1] += 2.5
        X[inside, 3 * k + 2] -= 2.5
    return pd.DataFrame(X, columns=[f"g{j}" for j in range(p)]), y


def test_class_models_share_the_resamples_and_equal_f_classif():
    X, y = _planted(seed=3)
    spec = mm.RunSpec(selector="anova", n_bootstraps=6, n_features=3, per_class=True,
                      operators=(), random_state=2)
    checked = check_run_data(X, y, spec)
    pooled = fit_base_models(checked)
    models = fit_class_models(checked)
    codes = np.unique(y, return_inverse=True)[1]
    Xa = X.to_numpy()
    for code, cls in enumerate(CLASSES):
        m = models[cls]
        np.testing.assert_array_equal(m.sample_indices, pooled.sample_indices)  # CRN
        assert m.extra["one_vs_rest"] == cls
        for i in range(m.n_models):
            rows = m.resample(i)
            want = f_classif(Xa[rows], (codes[rows] == code).astype(int))[0]
            np.testing.assert_allclose(m.scores[i], want.astype(np.float32), rtol=1e-6)
        # every resample holds every class (so every one-vs-rest fit has two classes)
        assert all(np.unique(codes[pooled.resample(i)]).size == 4 for i in range(6))


def test_class_models_of_a_label_free_preparation_equal_each_fit():
    """ig prepares the data once for all the classes (its sorted columns do not depend
    on the labels): each class's model still equals ig on that resample's one-vs-rest
    labels, fitted on its own."""
    from modelmine.selectors import get_selector

    X, y = _planted(seed=7, p=30)
    spec = mm.RunSpec(selector="ig", n_bootstraps=4, n_features=3, per_class=True,
                      operators=(), random_state=3)
    models = fit_class_models(check_run_data(X, y, spec))
    codes = np.unique(y, return_inverse=True)[1]
    ig = get_selector("ig")
    Xa = X.to_numpy()
    for code, cls in enumerate(CLASSES):
        for i in range(4):
            rows = models[cls].resample(i)
            want = ig.select(Xa[rows], (codes[rows] == code).astype(int), random_state=0)
            np.testing.assert_allclose(models[cls].scores[i],
                                       want.scores.astype(np.float32), rtol=1e-6)
