"""The selectors of a run with clinical covariates: every fit adjusted for them where the
model allows (:mod:`modelmine.outcomes._covariates` holds the statistics: residuals, the
adjusted Cox score test).

A classification selector takes them in one of three ways (:data:`CLASS_ADJUSTMENT`, the
table of ``docs/outcomes.md``):

- ``"unpenalised"``: a penalised logistic regression (``logreg``, ``l1-logistic``) is
  fitted on the genes and the covariates, the covariates (and the intercept) left
  unpenalised, so that a gene enters for what it adds to them, as glmnet's
  ``penalty.factor = 0``. liblinear has no penalty factors: the standardised covariate
  columns are multiplied by :data:`UNPENALISED_SCALE` (and so is the intercept, through
  ``intercept_scaling``), which divides their penalty by as much (to 1e-4 of the
  coefficients, statsmodels' ``Logit.fit_regularized`` with zero penalty on them in the
  tests);
- ``"ancova"``: the univariate tests of a gene across classes (``anova``, ``t-test``) become
  the analysis of covariance of the gene on the classes and the covariates: the partial F
  (t) of the classes, by Frisch-Waugh-Lovell the F of the gene's and the class indicators'
  residuals on ``[1, covariates]`` (statsmodels' OLS F test in the tests);
- ``"residuals"``: every other built-in selector scores the genes' residuals on
  ``[1, covariates]`` in each resample (the part of each gene that the covariates do not
  explain linearly, as limma's ``removeBatchEffect`` or scanpy's ``regress_out``), its own
  statistic unchanged: a gene that only mirrors a covariate is noise after it.

A selector that is not in the table (a plugin, a scikit-learn estimator, a callable) does
not take them: the run warns, naming the selector and the covariates.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..outcomes import outcome_kind
from ..outcomes._covariates import (
    Covariates,
    cox_adjusted_scores,
    residualise,
)
from ..validation import param_error
from ._base import Selector, SelectorOutput
from ._outcome_selectors import _standardised

__all__ = ["CLASS_ADJUSTMENT", "CovariateAdjustedSelector", "adjusted"]

#: How each built-in classification selector takes covariates, and why (docs/outcomes.md
#: prints this table; tests/selectors/test_class_covariates.py checks it is complete).
CLASS_ADJUSTMENT: dict[str, tuple[str, str]] = {
    "logreg": ("unpenalised", "a penalised logistic regression: the covariates join the "
               "model unpenalised, so a gene enters for what it adds to them"),
    "l1-logistic": ("unpenalised", "a penalised logistic regression: the covariates join "
                    "the model unpenalised, so a gene enters for what it adds to them"),
    "anova": ("ancova", "a linear model of the gene on the classes: with the covariates it "
              "is the analysis of covariance, the classes' partial F"),
    "t-test": ("ancova", "a linear model of the gene on the classes: with the covariates "
               "the class indicator's partial t (equal variances: Welch's correction has "
               "no analogue beside covariates)"),
    "fisher": ("residuals", "a ratio of between- to within-class variance: of the part of "
               "each gene the covariates do not explain"),
    "wilcoxon": ("residuals", "a rank test has no covariates; the ranks of the residuals "
                 "(rank-based ANCOVA, Quade 1967)"),
    "relieff": ("residuals", "distances between samples: on the residuals, the covariates "
                "no longer make two samples near or far"),
    "ig": ("residuals", "an entropy of discretised values: of the residuals"),
    "su": ("residuals", "an entropy of discretised values: of the residuals"),
    "gainratio": ("residuals", "an entropy of discretised values: of the residuals"),
    "chi2": ("residuals", "a contingency table of discretised values: of the residuals"),
    "oner": ("residuals", "one-rule classifiers of discretised values: of the residuals"),
    "mrmr": ("residuals", "mutual information of discretised values: of the residuals"),
    "cfs": ("residuals", "correlations of discretised values: of the residuals"),
    "svm-rfe": ("residuals", "a linear SVM on the residuals: an unpenalised covariate "
                "column has no place in the SVM's margin, and RFE must never drop it"),
    "svm-rfe50": ("residuals", "a linear SVM on the residuals (as svm-rfe)"),
    "svm": ("residuals", "a linear SVM on the residuals (as svm-rfe)"),
    "random-forest": ("residuals", "a forest given the covariates as columns would share "
                      "a confounded gene's importance with them; on the residuals the "
                      "gene has none"),
}

#: The covariate columns (standardised) are multiplied by this in an "unpenalised" fit:
#: their L1 or L2 penalty is divided by as much.
UNPENALISED_SCALE = 1e4


class CovariateAdjustedSelector(Selector):
    """A selector whose every fit is adjusted for covariates.

    Regression: y and the genes replaced by their residuals on the covariates; survival:
    ``cox-score``'s efficient score test, ``coxnet`` with the covariates unpenalised;
    classification: as :data:`CLASS_ADJUSTMENT` says for the selector.

    Parameters
    ----------
    selector : Selector
        The run's selector (``cox-score``, ``coxnet``, any regression selector, or a
        classification selector of :data:`CLASS_ADJUSTMENT`).
    covariates : Covariates
        Of all n samples; each resample takes its own rows.
    """

    def __init__(self, selector: Any, covariates: Covariates) -> None:
        self.selector = selector
        self.covariates = covariates
        self.name = selector.name
        self.kind = selector.kind
        self.supports_sparse = selector.supports_sparse
        self.supports_multiclass = selector.supports_multiclass
        self.outcomes = (selector.outcome,)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        """The adjusted fit on all the samples (X of the run's n rows)."""
        if X.shape[0] != self.covariates.values.shape[0]:
            raise param_error("X", "CovariateAdjustedSelector.select", "the run's "
                              f"{self.covariates.values.shape[0]} samples (a resample "
                              "goes through select_rows)", f"{X.shape[0]} rows",
                              show=False)
        return self._fit(X, y, self.covariates.values, random_state)

    def prepare(self, X: Any, y: np.ndarray) -> Any:
        return None

    def select_rows(self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
                    random_state: int) -> SelectorOutput:
        """The adjusted fit on the resample: X, y and the covariates of ``rows``."""
        return self._fit(X[rows], y[rows], self.covariates.take(rows), random_state)

    def _fit(self, X: Any, y: np.ndarray, Z: np.ndarray,
             random_state: int) -> SelectorOutput:
        keep = Z.std(axis=0) > 0  # a level absent from this resample
        Z = Z[:, keep]
        kind = outcome_kind(self.outcome)
        if not kind.classes and not kind.censored:  # numbers: on residuals
            return self.selector.select(residualise(X, Z), residualise(y, Z).ravel(),
                                        random_state=random_state)
        if kind.classes:
            how = CLASS_ADJUSTMENT[self.name][0]
            inner = getattr(self.selector, "selector", self.selector)  # past a scaling
            if how == "ancova" and getattr(inner, "reference", "rest") == "rest":
                return SelectorOutput(scores=ancova_scores(
                    X, y, Z, t_test=self.name == "t-test",
                    direction=getattr(inner, "direction", "both")))
            if how == "unpenalised":
                if inner is not self.selector:  # the run's feature scaling, then the fit
                    from ._scaling import _scale

                    X = _scale(X, self.selector.method)
                scores = _unpenalised_logistic(inner, X, y, Z, random_state)
                return SelectorOutput(scores=scores, support=scores > 0
                                      if inner.kind == "subset" else None)
            return self.selector.select(residualise(X, Z), y, random_state=random_state)
        event = np.asarray(y["event"], dtype=bool)
        time = np.asarray(y["time"], dtype=np.float64)
        if self.name == "cox-score":
            stat, _ = cox_adjusted_scores(X, event, time, Z)
            return SelectorOutput(scores=stat)
        inner = getattr(self.selector, "selector", self.selector)  # past a scaling
        design = np.column_stack([_standardised(Z), _standardised(X)])
        return inner.path(design, y, n_unpenalised=Z.shape[1])

    def get_params(self) -> dict[str, Any]:
        return self.selector.get_params()

    def describe(self) -> dict[str, Any]:
        return {**self.selector.describe(), "covariates": list(self.covariates.sources)}


def adjusts(selector: Any) -> bool:
    """Whether :func:`adjusted` fits ``selector`` adjusted for covariates: every selector
    of a continuous or survival outcome (or refuses it), a classification selector of
    :data:`CLASS_ADJUSTMENT` (the others are fitted as they are). The covariates a base
    models' description of its selector names follow it."""
    return not outcome_kind(selector.outcome).classes or selector.name in CLASS_ADJUSTMENT


def adjusted(selector: Any, covariates: Covariates | None, *, func: str) -> Any:
    """The selector as the run fits it: adjusted for the covariates where its model
    allows, itself with a warning naming it (a classification selector not in
    :data:`CLASS_ADJUSTMENT`), or refused (a survival selector that cannot take them)."""
    if covariates is None:
        return selector
    kind = outcome_kind(selector.outcome)
    if kind.classes:
        if not adjusts(selector):
            warnings.warn(
                f"The covariates {', '.join(covariates.sources)} did not enter the fits of "
                f"the selector {selector.name!r}: modelmine adjusts its built-in selectors "
                "only (docs/outcomes.md, 'Clinical covariates'); the markers' odds ratios "
                "are adjusted.", UserWarning, stacklevel=3)
            return selector
        return CovariateAdjustedSelector(selector, covariates)
    allowed = kind.adjusted_selectors
    if allowed is not None and selector.name not in allowed:
        raise param_error("covariates", func, f"a selector that adjusts for them for "
                          f"outcome={selector.outcome!r} ({', '.join(allowed)})",
                          f"covariates with selector {selector.name!r}", show=False)
    return CovariateAdjustedSelector(selector, covariates)


def ancova_scores(X: Any, y: np.ndarray, Z: np.ndarray, *, t_test: bool = False,
                  direction: str = "both") -> np.ndarray:
    """The analysis of covariance of each gene on the classes and the covariates.

    With R_x and R_D the residuals of the gene and of the class indicators (all classes
    but the first) on ``[1, Z]`` (Frisch-Waugh-Lovell), the classes' sum of squares is
    that of the projection of R_x on R_D, and
    ``F = (SS_class / (K - 1)) / ((|R_x|^2 - SS_class) / (n - 1 - q - (K - 1)))``, the
    partial F test of the classes in the linear model of the gene on the classes and the
    covariates. With ``t_test``: each class against the rest, the t of its indicator in
    the model of the gene on it and the covariates, directed (``direction``) and the
    largest over the classes (two classes: the one t), as the t-test selector scores.

    Returns
    -------
    ndarray of shape (p,)
        0 for a gene the covariates explain exactly.
    """
    from ..outcomes._covariates import residualise
    from ._singlecell import directed

    Rx = residualise(X.toarray() if sp.issparse(X) else X, Z)
    codes = np.unique(np.asarray(y), return_inverse=True)[1].ravel()
    k = int(codes.max()) + 1 if codes.size else 1
    n = Rx.shape[0]
    total = (Rx * Rx).sum(axis=0)
    dof = n - 1 - Z.shape[1] - (k - 1)
    scale = 1e-12 * np.maximum(total, 1e-300)
    if k < 2 or dof < 1:
        return np.zeros(Rx.shape[1])
    onehot = (codes[:, None] == np.arange(k)[None, :]).astype(np.float64)
    if t_test:
        dof = n - 2 - Z.shape[1]  # the intercept, the covariates and one indicator
        best = np.full(Rx.shape[1], -np.inf)
        for c in range(k if k > 2 else 1):
            d = residualise(onehot[:, c if k > 2 else 1], Z).ravel()
            dd = float(d @ d)
            if dd <= 1e-12:
                continue
            proj = (d @ Rx) / np.sqrt(dd)
            rss = np.maximum(total - proj * proj, 0.0)
            with np.errstate(divide="ignore", invalid="ignore"):
                t = np.where(rss > scale, proj / np.sqrt(rss / dof), 0.0)
            best = np.maximum(best, directed(t, direction))
        return np.where(np.isfinite(best), best, 0.0)
    RD = residualise(onehot[:, 1:], Z)
    Q, R = np.linalg.qr(RD)
    rank = int((np.abs(np.diag(R)) > 1e-10 * max(1.0, float(np.abs(R).max()))).sum())
    if rank == 0:
        return np.zeros(Rx.shape[1])
    Q = Q[:, np.abs(np.diag(R)) > 1e-10 * max(1.0, float(np.abs(R).max()))]
    between = ((Q.T @ Rx) ** 2).sum(axis=0)
    within = np.maximum(total - between, 0.0)
    dof = n - 1 - Z.shape[1] - rank
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(within > scale, (between / rank) / (within / dof), 0.0)
    return np.maximum(f, 0.0)


def _unpenalised_logistic(selector: Any, X: Any, y: np.ndarray, Z: np.ndarray,
                          random_state: int) -> np.ndarray:
    """The selector's penalised logistic regression of the genes with the covariates
    unpenalised (their standardised columns, and the intercept, multiplied by
    :data:`UNPENALISED_SCALE`), liblinear's solver: the genes' directed |coefficients|, each
    class against the rest beyond two classes (the largest)."""
    from sklearn.linear_model import LogisticRegression

    from ._base import LIBLINEAR_LOCK
    from ._singlecell import directed

    Zs = (Z - Z.mean(axis=0)) / Z.std(axis=0)
    p = X.shape[1]
    block = UNPENALISED_SCALE * Zs
    design = (sp.hstack([sp.csr_matrix(X), sp.csr_matrix(block)], format="csr")
              if sp.issparse(X) else np.column_stack([np.asarray(X, np.float64), block]))
    penalty = getattr(selector, "penalty", "l1")
    direction = getattr(selector, "direction", "both")
    codes = np.unique(np.asarray(y), return_inverse=True)[1].ravel()
    k = int(codes.max()) + 1 if codes.size else 1
    out = np.zeros(p)
    for c in range(k if k > 2 else 1):
        target = (codes == (c if k > 2 else 1)).astype(np.int64)
        if target.min() == target.max():
            continue
        model = LogisticRegression(C=selector.C, l1_ratio=1.0 if penalty == "l1" else 0.0,
                                   solver="liblinear", max_iter=selector.max_iter,
                                   tol=getattr(selector, "tol", 1e-4),
                                   intercept_scaling=UNPENALISED_SCALE,
                                   random_state=random_state)
        with LIBLINEAR_LOCK:
            model.fit(design, target)
        score = directed(np.asarray(model.coef_, dtype=np.float64)[0, :p], direction)
        out = score if c == 0 else np.maximum(out, score)
    return out
