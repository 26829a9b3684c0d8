"""Built-in selectors, by name, and the resolver that turns a user's spec into a Selector.

The univariate and multivariate selectors of Woznica, Nguyen and Kalousis (KDD 2012,
section 3) and Saeys, Abeel and Van de Peer (PKDD 2008, section 3): "chi2", "anova", "ig",
"su", "relieff", "svm-rfe", "svm" (SVMONE), plus "l1-logistic" and "random-forest".
"""

from __future__ import annotations

import numbers
import threading
from typing import Any

import numpy as np

from ..validation import check_choice, check_int, check_real, param_error
from ._base import (
    CallableSelector,
    EstimatorSelector,
    Selector,
    SelectorKind,
    SelectorOutput,
)

__all__ = ["SELECTORS", "available_selectors", "get_selector"]


class _Discretising(Selector):
    """Shared parameters of the selectors that score discretised features."""

    def __init__(self, discretization: str = "mdl", n_bins: int = 10):
        self.discretization = check_choice(
            discretization, "discretization", type(self).__name__, ["mdl", "quantile", "uniform"]
        )
        self.n_bins = check_int(n_bins, "n_bins", type(self).__name__, min_value=2)

    def get_params(self) -> dict[str, Any]:
        return {"discretization": self.discretization, "n_bins": self.n_bins}


class InfoGainSelector(_Discretising):
    """Information gain IG(C; F) = H(C) - H(C | F) of each discretised feature.

    As WEKA's InfoGainAttributeEval used in KDD 2012 (section 3, "IG"): features are
    discretised with Fayyad and Irani's MDL method by default.
    """

    name = "ig"

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._information import information_gain

        return SelectorOutput(scores=information_gain(
            X, y, discretization=self.discretization, n_bins=self.n_bins))


class SymmetricalUncertaintySelector(_Discretising):
    """Symmetrical uncertainty 2 IG / (H(C) + H(F)) (KDD 2012 "SYM"; PKDD 2008 "SU")."""

    name = "su"

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._information import symmetrical_uncertainty

        return SelectorOutput(scores=symmetrical_uncertainty(
            X, y, discretization=self.discretization, n_bins=self.n_bins))


class Chi2Selector(_Discretising):
    """Pearson's chi-square statistic of the feature-by-class contingency table.

    As WEKA's ChiSquaredAttributeEval used in KDD 2012 ("CHI"): each feature is discretised
    (MDL by default, as for "ig"), and the statistic sum (O - E)^2 / E is computed over its
    levels x classes table. Unlike :func:`sklearn.feature_selection.chi2`, it needs no
    non-negative input: it works on expression values as well as on counts.
    """

    name = "chi2"

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._information import discretize

        codes, n_levels = discretize(X, y, method=self.discretization, n_bins=self.n_bins)
        return SelectorOutput(scores=chi2_contingency_scores(codes, n_levels, y))


def chi2_contingency_scores(codes: np.ndarray, n_levels: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Chi-square statistic of each column of ``codes`` against the classes ``y``.

    Parameters
    ----------
    codes : int ndarray of shape (n, p)
        Discretised features, levels 0 .. n_levels[j] - 1.
    n_levels : int ndarray of shape (p,)
    y : int ndarray of shape (n,)
        Class codes 0 .. K - 1.

    Returns
    -------
    ndarray of shape (p,)
        0 for a feature with a single level.
    """
    n, p = codes.shape
    k = int(y.max()) + 1
    width = int(n_levels.max()) if p else 1
    # One bincount over (feature, level, class) triples builds all contingency tables.
    flat = (np.arange(p)[None, :] * width + codes) * k + y[:, None]
    table = np.bincount(flat.ravel(), minlength=p * width * k).reshape(p, width, k)
    table = table.astype(np.float64)
    rows = table.sum(axis=2, keepdims=True)
    cols = table.sum(axis=1, keepdims=True)
    expected = rows * cols / n
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(expected > 0, (table - expected) ** 2 / expected, 0.0)
    return terms.sum(axis=(1, 2))


class AnovaSelector(Selector):
    """The ANOVA F statistic of each feature (:func:`sklearn.feature_selection.f_classif`).

    A feature that is constant within a resample has an undefined F; it scores 0. Rounding
    noise below 0 (about -1e-17 on near-constant features) is clipped: F is non-negative.
    """

    name = "anova"

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from sklearn.feature_selection import f_classif

        with np.errstate(divide="ignore", invalid="ignore"):
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                warnings.filterwarnings("ignore", message=".*constant.*")
                f, _ = f_classif(X, y)
        # F >= 0 by definition; rounding can leave -1e-17 on near-constant features.
        return SelectorOutput(scores=np.maximum(np.nan_to_num(f, nan=0.0, posinf=0.0), 0.0))


class ReliefFSelector(Selector):
    """ReliefF (Kononenko 1994; Robnik-Sikonja and Kononenko 2003), as in KDD 2012.

    Weights equal to :class:`skrebate.ReliefF` with the same number of neighbours, from a
    vectorised implementation (see ``docs/selectors_relieff_info.md``).
    """

    name = "relieff"

    def __init__(self, n_neighbors: int = 10):
        self.n_neighbors = check_int(n_neighbors, "n_neighbors", "ReliefFSelector", min_value=1)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._relieff import relieff_scores

        return SelectorOutput(scores=relieff_scores(X, y, n_neighbors=self.n_neighbors))

    def get_params(self) -> dict[str, Any]:
        return {"n_neighbors": self.n_neighbors}


class SVMRFESelector(Selector):
    """SVM recursive feature elimination (Guyon et al. 2002) with a linear SVM.

    KDD 2012 ("SVMRFE"): C = 0.5 and 10 % of the features eliminated at each iteration.
    ``step_rule="remaining"`` removes ``step`` of the features still in play (the papers'
    rule, the default); ``"original"`` removes ``step`` of the original number, as
    :class:`sklearn.feature_selection.RFE`. The full ranking is a total order: within an
    elimination step the smaller weight ranks worse. See ``docs/selectors_svm_rfe.md``.
    """

    name = "svm-rfe"
    kind: SelectorKind = "ranking"

    def __init__(self, C: float = 0.5, step: float = 0.1, step_rule: str = "remaining",
                 tol: float = 1e-3):
        self.C = check_real(C, "C", "SVMRFESelector", low=0, closed="neither")
        if isinstance(step, numbers.Integral) and not isinstance(step, bool):
            self.step: float = check_int(step, "step", "SVMRFESelector", min_value=1)
        else:
            self.step = check_real(step, "step", "SVMRFESelector", low=0, high=1,
                                   closed="neither")
        self.step_rule = check_choice(step_rule, "step_rule", "SVMRFESelector",
                                      ["remaining", "original"])
        self.tol = check_real(tol, "tol", "SVMRFESelector", low=0, closed="neither")

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._svm_rfe import svm_rfe_ranking

        return SelectorOutput(ranking=svm_rfe_ranking(
            X, y, C=self.C, step=self.step, step_rule=self.step_rule, tol=self.tol))

    def get_params(self) -> dict[str, Any]:
        return {"C": self.C, "step": self.step, "step_rule": self.step_rule, "tol": self.tol}


class SVMOneSelector(Selector):
    """SVMONE (KDD 2012): the weight magnitude of one linear SVM (C = 0.5) per feature."""

    name = "svm"

    def __init__(self, C: float = 0.5, tol: float = 1e-3):
        self.C = check_real(C, "C", "SVMOneSelector", low=0, closed="neither")
        self.tol = check_real(tol, "tol", "SVMOneSelector", low=0, closed="neither")

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._svm_rfe import svm_weights

        return SelectorOutput(scores=svm_weights(X, y, C=self.C, tol=self.tol))

    def get_params(self) -> dict[str, Any]:
        return {"C": self.C, "tol": self.tol}


_LIBLINEAR_LOCK = threading.Lock()


class L1LogisticSelector(Selector):
    """L1-penalised logistic regression (liblinear); it chooses its own subset.

    The subset is the features with a non-zero coefficient (in any class); ``n_features``
    of :func:`modelmine.bootstrap` caps it (the largest |coefficients| are kept), so
    subsets may be smaller than ``n_features`` and differ in size between bootstraps.
    Scores are |coefficients| (summed over classes), so the ranking is complete.

    liblinear seeds a process-global C random generator, so two fits running at once in
    threads of one process would disturb each other's draws; fits are serialised by a lock
    (process-based parallelism, joblib's default, is unaffected).
    """

    name = "l1-logistic"
    kind: SelectorKind = "subset"

    def __init__(self, C: float = 0.1, max_iter: int = 1000):
        self.C = check_real(C, "C", "L1LogisticSelector", low=0, closed="neither")
        self.max_iter = check_int(max_iter, "max_iter", "L1LogisticSelector", min_value=1)

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from sklearn.linear_model import LogisticRegression

        model = LogisticRegression(
            C=self.C, l1_ratio=1.0, solver="liblinear", max_iter=self.max_iter,
            random_state=random_state,
        )
        with _LIBLINEAR_LOCK:
            model.fit(X, y)
        scores = np.abs(model.coef_).sum(axis=0)
        return SelectorOutput(scores=scores, support=scores > 0)

    def get_params(self) -> dict[str, Any]:
        return {"C": self.C, "max_iter": self.max_iter}


class RandomForestSelector(Selector):
    """Impurity-based importances of a random forest (PKDD 2008 "RF")."""

    name = "random-forest"

    def __init__(self, n_estimators: int = 100, max_features: str | float = "sqrt"):
        self.n_estimators = check_int(n_estimators, "n_estimators", "RandomForestSelector",
                                      min_value=1)
        self.max_features = max_features

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from sklearn.ensemble import RandomForestClassifier

        forest = RandomForestClassifier(
            n_estimators=self.n_estimators, max_features=self.max_features,
            random_state=random_state, n_jobs=1,
        ).fit(X, y)
        return SelectorOutput(scores=forest.feature_importances_)

    def get_params(self) -> dict[str, Any]:
        return {"n_estimators": self.n_estimators, "max_features": self.max_features}


SELECTORS: dict[str, type[Selector]] = {
    cls.name: cls
    for cls in (
        Chi2Selector, AnovaSelector, InfoGainSelector, SymmetricalUncertaintySelector,
        ReliefFSelector, SVMRFESelector, SVMOneSelector, L1LogisticSelector,
        RandomForestSelector,
    )
}


def available_selectors() -> list[str]:
    """Names of the built-in selectors."""
    return list(SELECTORS)


def get_selector(spec: Any, params: dict[str, Any] | None = None, *,
                 func: str = "bootstrap") -> Selector:
    """Resolve a selector spec: a built-in name, a Selector, an estimator or a callable.

    Parameters
    ----------
    spec : str, Selector, scikit-learn estimator or callable
        A built-in name (see :func:`available_selectors`); a :class:`Selector`; an estimator
        with ``coef_`` or ``feature_importances_`` after fitting, or a ``SelectorMixin``; a
        callable ``(X, y) -> scores``.
    params : dict, optional
        Parameters of a built-in selector (for example ``{"n_neighbors": 5}``).
    func : str
        The public function asking, for error messages.
    """
    params = dict(params or {})
    if isinstance(spec, str):
        if spec not in SELECTORS:
            from ..validation import closest_names

            close = closest_names(spec, SELECTORS)
            raise param_error(
                "selector", func, "one of " + ", ".join(repr(s) for s in SELECTORS)
                + ", a Selector, a scikit-learn estimator or a callable", spec,
                hint=f"Did you mean {close[0]!r}?" if close else None,
            )
        try:
            return SELECTORS[spec](**params)
        except TypeError as exc:
            raise param_error(
                "selector_params", func, f"parameters accepted by selector {spec!r}",
                params, hint=str(exc),
            ) from None
    if params:
        raise param_error("selector_params", func,
                          "empty unless 'selector' is a built-in name", params)
    if isinstance(spec, Selector):
        return spec
    if hasattr(spec, "fit"):
        return EstimatorSelector(spec)
    if callable(spec):
        return CallableSelector(spec)
    raise param_error(
        "selector", func, "a selector name, a Selector, a scikit-learn estimator or a "
        "callable (X, y) -> scores", spec, exc=TypeError,
    )

