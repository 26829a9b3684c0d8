"""The models fitted on a signature's genes for a continuous or survival outcome, and what
measures them (the evaluation's, :func:`modelmine.evaluation.evaluate_outcome`, and the
report's out-of-fold prediction).

The KDD'12 protocol (Woznica, Nguyen and Kalousis, KDD 2012, section 3) with another model
and measure per outcome:

- regression: ridge regression (``"ridge"``, the penalty chosen by efficient leave-one-out
  on the training part) or a random forest (``"rf"``); RMSE and R^2 per fold, and each test
  sample's squared error;
- survival: a Cox model with a small ridge penalty (``"coxph"``, scikit-survival's
  ``CoxPHSurvivalAnalysis``) or a random survival forest (``"rsf"``); Harrell's
  concordance, Uno's concordance (censoring weights from the training part) and the
  integrated Brier score (scikit-survival's ``concordance_index_censored``,
  ``concordance_index_ipcw`` and ``integrated_brier_score``; Uno et al. 2011, Graf et al.
  1999).

Each model is a factory of a fresh estimator; the kinds hold them
(:attr:`modelmine.outcomes.OutcomeKind.models`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["coxph", "regression_measures", "rf_regressor", "ridge", "rsf",
           "squared_errors", "survival_measures"]


def ridge() -> Any:
    """Ridge regression of the standardised genes, its penalty chosen by leave-one-out."""
    from sklearn.linear_model import RidgeCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), RidgeCV(alphas=np.logspace(-3, 3, 13)))


def rf_regressor() -> Any:
    """A random forest of 200 regression trees (seed 0)."""
    from sklearn.ensemble import RandomForestRegressor

    return RandomForestRegressor(n_estimators=200, random_state=0, n_jobs=1)


def coxph() -> Any:
    """A Cox model of the standardised genes with a small ridge penalty (Breslow ties)."""
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sksurv.linear_model import CoxPHSurvivalAnalysis

    return make_pipeline(StandardScaler(), CoxPHSurvivalAnalysis(alpha=1.0, ties="breslow"))


def rsf() -> Any:
    """A random survival forest of 200 trees (seed 0)."""
    from sksurv.ensemble import RandomSurvivalForest

    return RandomSurvivalForest(n_estimators=200, min_samples_leaf=3, random_state=0,
                                n_jobs=1)


def regression_measures(model: Any, Xte: np.ndarray, pred: np.ndarray, y_train: np.ndarray,
                        y_test: np.ndarray) -> dict[str, float]:
    """RMSE and R^2 of a test part (R^2 NaN for a constant test part)."""
    resid = y_test - pred
    ss = float(np.sum((y_test - y_test.mean()) ** 2))
    return {"rmse": float(np.sqrt(np.mean(resid ** 2))),
            "r2": float(1 - np.sum(resid ** 2) / ss) if ss > 0 else np.nan}


def squared_errors(pred: np.ndarray, y_test: np.ndarray) -> dict[str, np.ndarray]:
    """Each test sample's observed value and squared error."""
    return {"y_true": y_test, "squared_error": (pred - y_test) ** 2}


def survival_measures(model: Any, Xte: np.ndarray, pred: np.ndarray, y_train: np.ndarray,
                      y_test: np.ndarray) -> dict[str, float]:
    """Harrell's and Uno's concordance and the integrated Brier score of a test part."""
    from sksurv.metrics import (
        concordance_index_censored,
        concordance_index_ipcw,
        integrated_brier_score,
    )

    harrell = float(concordance_index_censored(y_test["event"], y_test["time"], pred)[0])
    # Uno's C and the Brier score need test times inside the training follow-up
    tau = float(y_train["time"][y_train["event"]].max()) if y_train["event"].any() else 0.0
    inside = y_test["time"] < tau
    try:
        uno = float(concordance_index_ipcw(y_train, y_test[inside], pred[inside],
                                           tau=tau)[0])
    except ValueError:
        uno = np.nan
    ibs = np.nan
    observed = y_test["time"][inside]
    if observed.size >= 2 and hasattr(model, "predict_survival_function"):
        lo, hi = float(np.quantile(observed, 0.1)), float(np.quantile(observed, 0.9))
        if hi > lo:
            grid = np.linspace(lo, hi, 20)
            try:
                curves = model.predict_survival_function(Xte[inside])
                surv = np.vstack([fn(grid) for fn in curves])
                ibs = float(integrated_brier_score(y_train, y_test[inside], surv, grid))
            except ValueError:
                ibs = np.nan
    return {"harrell_c": harrell, "uno_c": uno, "integrated_brier": ibs}
