"""Built-in selectors, by name, and the resolver that turns a user's spec into a Selector.

The univariate and multivariate selectors of Woznica, Nguyen and Kalousis (KDD 2012,
section 3) and Saeys, Abeel and Van de Peer (PKDD 2008, section 3): "chi2", "anova", "ig",
"su", "relieff", "svm-rfe", "svm" (SVMONE), plus "l1-logistic" and "random-forest".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._registry import BUILT_IN, Entry, Registry
from ..outcomes import outcome_kind
from ..validation import check_choice, check_int, check_real, param_error
from ._base import (
    LIBLINEAR_LOCK,
    CallableSelector,
    EstimatorSelector,
    Selector,
    SelectorKind,
    SelectorOutput,
)
from ._cfs import CFSSelector
from ._discretising import _Discretising
from ._outcome_selectors import (
    BoostedCoxSelector,
    CoxnetSelector,
    CoxScoreSelector,
    ElasticNetSelector,
    LassoSelector,
    PearsonSelector,
    RReliefFSelector,
    SVRRFESelector,
)
from ._singlecell import LogRegSelector, WelchTSelector, WilcoxonSelector
from ._studies import GainRatioSelector, MRMRSelector, OneRSelector, SVMRFE50Selector
from ._svm_selectors import SVMOneSelector, SVMRFESelector

__all__ = ["SELECTOR_ENTRY_POINT_GROUP", "SelectorRegistry", "available", "default_registry",
           "get_selector", "refresh", "register_selector", "selectors_for",
           "weighted_f_classif",
           "weighted_selectors"]


class InfoGainSelector(_Discretising):
    """Information gain IG(C; F) = H(C) - H(C | F) of each discretised feature.

    As WEKA's InfoGainAttributeEval used in KDD 2012 (section 3, "IG"): features are
    discretised with Fayyad and Irani's MDL method by default.
    """

    name = "ig"
    _score = "ig"

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._information import information_gain

        return SelectorOutput(scores=information_gain(
            X, y, discretization=self.discretization, n_bins=self.n_bins,
            better_encoding=self.better_encoding))


class SymmetricalUncertaintySelector(_Discretising):
    """Symmetrical uncertainty 2 IG / (H(C) + H(F)) (KDD 2012 "SYM"; PKDD 2008 "SU")."""

    name = "su"
    _score = "su"

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._information import symmetrical_uncertainty

        return SelectorOutput(scores=symmetrical_uncertainty(
            X, y, discretization=self.discretization, n_bins=self.n_bins,
            better_encoding=self.better_encoding))


class Chi2Selector(_Discretising):
    """Pearson's chi-square statistic of the feature-by-class contingency table.

    As WEKA's ChiSquaredAttributeEval used in KDD 2012 ("CHI"): each feature is discretised
    (MDL by default, as for "ig"), and the statistic sum (O - E)^2 / E is computed over its
    levels x classes table. Unlike :func:`sklearn.feature_selection.chi2`, it needs no
    non-negative input: it works on expression values as well as on counts.
    """

    name = "chi2"
    _score = "chi2"

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        from ._information import discretize

        codes, n_levels = discretize(X, y, method=self.discretization, n_bins=self.n_bins,
                                     better_encoding=self.better_encoding)
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
    from ._information import chi2_from_table

    return chi2_from_table(table.astype(np.float64), n)


class AnovaSelector(Selector):
    """The ANOVA F statistic of each feature (:func:`sklearn.feature_selection.f_classif`).

    A feature that is constant within a resample has an undefined F; it scores 0. Rounding
    noise below 0 (about -1e-17 on near-constant features) is clipped: F is non-negative.
    With ``sample_weight``, the one-way ANOVA of weighted least squares
    (:func:`weighted_f_classif`): weights are relative, and integer weights rank the
    features as the rows repeated.
    """

    name = "anova"
    supports_weights = True
    prepare_uses_labels = False

    def select_rows_one_vs_rest(self, prepared: list[Any], X: Any, y: np.ndarray,
                                rows: np.ndarray, classes: tuple[int, ...], *,
                                random_state: int) -> list[SelectorOutput]:
        """Every class's F against the rest from one pass over the resample: the class
        sums and the sums of squares, then, per class, the two-group one-way ANOVA
        (:func:`sklearn.feature_selection.f_classif` of ``y == c``, to rounding)."""
        Xr = X[rows]
        yr = y[rows]
        n = rows.size
        if sp.issparse(Xr):
            Xr = sp.csr_matrix(Xr)
            onehot = sp.csr_matrix((np.ones(n), (yr, np.arange(n))),
                                   shape=(int(y.max()) + 1, n))
            sums = np.asarray((onehot @ Xr).todense())
            sq = np.asarray((onehot @ Xr.multiply(Xr)).todense())
        else:
            Xd = np.asarray(Xr, dtype=np.float64)
            onehot_d = np.zeros((int(y.max()) + 1, n))
            onehot_d[yr, np.arange(n)] = 1.0
            sums, sq = onehot_d @ Xd, onehot_d @ (Xd * Xd)
        counts = np.bincount(yr, minlength=sums.shape[0]).astype(np.float64)
        total, total_sq = sums.sum(axis=0), sq.sum(axis=0)
        out = []
        for c in classes:
            n1 = counts[c]
            n0 = n - n1
            s1, s0 = sums[c], total - sums[c]
            q1, q0 = sq[c], total_sq - sq[c]
            ss_within = (q1 - s1 * s1 / n1) + (q0 - s0 * s0 / n0)
            ss_between = s1 * s1 / n1 + s0 * s0 / n0 - total * total / n
            with np.errstate(divide="ignore", invalid="ignore"):
                f = ss_between / (ss_within / (n - 2))
            out.append(SelectorOutput(scores=np.maximum(
                np.nan_to_num(f, nan=0.0, posinf=0.0, neginf=0.0), 0.0)))
        return out

    def select(self, X: Any, y: np.ndarray, *, random_state: int,
               sample_weight: np.ndarray | None = None) -> SelectorOutput:
        from sklearn.feature_selection import f_classif

        if sample_weight is not None:
            return SelectorOutput(scores=weighted_f_classif(X, y, sample_weight))

        with np.errstate(divide="ignore", invalid="ignore"):
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                warnings.filterwarnings("ignore", message=".*constant.*")
                f, _ = f_classif(X, y)
        # F >= 0 by definition; rounding can leave -1e-17 on near-constant features.
        return SelectorOutput(scores=np.maximum(np.nan_to_num(f, nan=0.0, posinf=0.0), 0.0))


def weighted_f_classif(X: Any, y: np.ndarray, sample_weight: np.ndarray) -> np.ndarray:
    """The one-way ANOVA F statistic of each feature with relative sample weights.

    The F of weighted least squares of each feature on the classes: with the weights
    divided by their mean over the n+ rows of positive weight (so ``W = sum(w) = n+``),
    class totals ``W_c``, weighted class means ``m_c`` and overall mean ``m``,
    ``F = [sum_c W_c (m_c - m)^2 / (K - 1)] / [sum_i w_i (x_i - m_c(i))^2 / (n+ - K)]``
    (the F test of ``statsmodels.WLS`` of the feature on the class indicators, whose
    residual degrees of freedom are the number of observations less K). A constant
    factor on all weights therefore changes nothing, and equal weights give
    :func:`sklearn.feature_selection.f_classif` exactly. Integer weights w_i are the rows
    repeated w_i times up to one factor common to all features: F times
    ``(n+ - K) / (sum(w) - K)`` is ``f_classif`` of the repeated rows, so the ranking
    and the selection are those of the repeated rows. Classes of total weight 0 are left
    out; an undefined F (a constant feature, or no residual degree of freedom) scores 0.
    Dense or sparse ``X`` (sparse stays sparse).
    """
    w = np.asarray(sample_weight, dtype=np.float64)
    positive = w > 0
    if positive.any():
        w = w / w.max()  # the largest weight is 1: the sum of weights up to 1.8e308 is finite
        w = w / w[positive].mean()
    n_pos = int(positive.sum())
    classes = np.unique(y[positive])
    K = classes.size
    onehot = (y[:, None] == classes[None, :]) * w[:, None]  # n x K, weighted
    Wc = onehot.sum(axis=0)
    W = Wc.sum()
    if sp.issparse(X):
        Xc = sp.csr_matrix(X)
        sums = np.asarray(Xc.T @ onehot).T  # K x p
        sq = np.asarray(Xc.multiply(Xc).T @ w).ravel()
    else:
        Xd = np.asarray(X, dtype=np.float64)
        sums = onehot.T @ Xd
        sq = w @ (Xd * Xd)
    means = sums / Wc[:, None]
    total = sums.sum(axis=0)
    ss_between = (sums * means).sum(axis=0) - total * total / W
    ss_within = sq - (sums * means).sum(axis=0)
    if K < 2 or n_pos <= K:
        return np.zeros(sums.shape[1])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        f = (ss_between / (K - 1)) / (ss_within / (n_pos - K))
    return np.maximum(np.nan_to_num(f, nan=0.0, posinf=0.0, neginf=0.0), 0.0)


class ReliefFSelector(Selector):
    """ReliefF (Kononenko 1994; Robnik-Sikonja and Kononenko 2003), as in KDD 2012.

    By default (``variant="weka"``) WEKA 3.6's ``ReliefFAttributeEval``, the tool of the
    KDD 2012, Pes (2019) and Saeys (2008) studies: class priors weight the misses of each
    class, distances use WEKA's ranges; equal to WEKA's scores (``docs/weka_relieff_svm.md``).
    ``weight_by_distance=True`` is WEKA's ``-W`` (Pes 2019). ``variant="skrebate"`` gives
    :class:`skrebate.ReliefF`'s weights with the same number of neighbours (the default
    before issue 37), from a vectorised implementation (``docs/selectors_relieff_info.md``).
    Records always state the variant; a record written before it did (no ``variant``)
    means scikit-rebate's, or WEKA's when distance-weighted (:meth:`params_from_record`).
    """

    name = "relieff"
    always_recorded = ("variant",)

    def __init__(self, n_neighbors: int = 10, weight_by_distance: bool = False,
                 sigma: float = 2.0, variant: str = "weka"):
        self.n_neighbors = check_int(n_neighbors, "n_neighbors", "ReliefFSelector", min_value=1)
        if not isinstance(weight_by_distance, bool | np.bool_):
            raise param_error("weight_by_distance", "ReliefFSelector", "a bool",
                              weight_by_distance, exc=TypeError)
        self.weight_by_distance = bool(weight_by_distance)
        self.sigma = check_real(sigma, "sigma", "ReliefFSelector", low=0, closed="neither")
        self.variant = check_choice(variant, "variant", "ReliefFSelector",
                                    ("weka", "skrebate"))
        if self.weight_by_distance and self.variant != "weka":
            raise param_error("variant", "ReliefFSelector", "'weka' with "
                              "weight_by_distance=True (WEKA's -W: scikit-rebate's ReliefF "
                              "has no distance weighting)", variant)

    @property
    def _weka(self) -> bool:
        return self.variant == "weka"

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        if self._weka:  # WEKA's ReliefFAttributeEval, -W when weighted (Pes 2019)
            from ._relieff_weka import relieff_weka_scores

            return SelectorOutput(scores=relieff_weka_scores(
                X, y, n_neighbors=self.n_neighbors, weight_by_distance=self.weight_by_distance,
                sigma=self.sigma))
        from ._relieff import relieff_scores

        return SelectorOutput(scores=relieff_scores(X, y, n_neighbors=self.n_neighbors))

    def prepare(self, X: Any, y: np.ndarray) -> Any:
        """What the resamples of ``X`` share: for scikit-rebate's ReliefF the mismatch
        counts between all rows (:class:`._relieff.ReliefFFold`); for WEKA's, the data
        held once, each resample's distances then computed over its distinct rows
        (:class:`._relieff_weka.WekaReliefFFold`: WEKA's ranges, hence its distances,
        change with the resample)."""
        if self._weka:
            from ._relieff_weka import WekaReliefFFold

            return WekaReliefFFold.of(X)
        from ._relieff import FOLD_BUDGET, ReliefFFold, fold_bytes

        need = fold_bytes(X.shape[0])
        if need > FOLD_BUDGET:  # bounded before anything is allocated (issue 37)
            import warnings

            warnings.warn(
                f"ReliefF (variant='skrebate'): the mismatch counts its resamples would share "
                f"take {need / 2**20:,.0f} MiB for {X.shape[0]:,} rows, above the budget of "
                f"{FOLD_BUDGET / 2**20:,.0f} MiB; each resample computes its own distances "
                "instead (the same scores, more time).", RuntimeWarning, stacklevel=2)
            return None
        return ReliefFFold(X, y)

    def prepare_nbytes(self, X: Any, y: np.ndarray) -> int:
        """WEKA's: a CSR copy of sparse (or mostly-zero dense) data unless it is canonical
        float64 CSR already; scikit-rebate's: the
        mismatch counts (:func:`._relieff.fold_bytes`) and what builds them, or 0 above its
        own budget (each resample then computes its own distances)."""
        n = X.shape[0]
        if self._weka:
            from ._relieff_weka import _SPARSE_DENSITY

            if sp.issparse(X):
                S: Any = X
                if (S.format == "csr" and S.dtype == np.float64 and S.has_canonical_format
                        and S.data.all()):
                    return 0  # held as it is
                return 24 * int(S.nnz) + 8 * (n + X.shape[1] + 2)  # a CSR copy
            nnz = int(np.count_nonzero(X))
            if nnz <= _SPARSE_DENSITY * X.size:  # a mask, the indices, the CSR arrays
                return X.size + 40 * nnz + 8 * (n + 1)
            return 0
        from ._relieff import FOLD_BUDGET, fold_bytes

        if fold_bytes(n) > FOLD_BUDGET:
            return 0
        # the counts, their two sparse products (at most n^2 entries each) and the
        # per-entry coding of the (feature, value) pairs
        entries = int(X.nnz) if sp.issparse(X) else X.size
        return fold_bytes(n) + 24 * n * n + 120 * entries

    def select_rows(
        self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *, random_state: int
    ) -> SelectorOutput:
        if prepared is None:
            return self.select(X[rows], y[rows], random_state=random_state)
        from ._relieff_weka import WekaReliefFFold

        if isinstance(prepared, WekaReliefFFold):
            from ._relieff_weka import resample_relieff_weka_scores

            return SelectorOutput(scores=resample_relieff_weka_scores(
                prepared, y, rows, n_neighbors=self.n_neighbors,
                weight_by_distance=self.weight_by_distance, sigma=self.sigma))
        from ._relieff import resample_relieff_scores

        return SelectorOutput(
            scores=resample_relieff_scores(prepared, rows, n_neighbors=self.n_neighbors)
        )

    def get_params(self) -> dict[str, Any]:
        # The variant always (its default changed, issue 37); sigma only when it is used.
        if self.weight_by_distance:
            return {"n_neighbors": self.n_neighbors, "variant": self.variant,
                    "weight_by_distance": True, "sigma": self.sigma}
        return {"n_neighbors": self.n_neighbors, "variant": self.variant}

    @classmethod
    def params_from_record(cls, params: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters of a stored record: one without ``variant`` was written when
        scikit-rebate's ReliefF was the default, so it means ``variant="skrebate"``, or
        ``"weka"`` when distance-weighted (``weight_by_distance`` always ran WEKA's ``-W``).

        Parameters
        ----------
        params : mapping
            The recorded parameters.

        Returns
        -------
        dict
            ``params`` with ``variant`` stated.
        """
        out = dict(params)
        if "variant" not in out:
            out["variant"] = "weka" if out.get("weight_by_distance") is True else "skrebate"
        return out


class L1LogisticSelector(Selector):
    """L1-penalised logistic regression (liblinear); it chooses its own subset.

    The subset is the features with a non-zero coefficient; ``n_features`` of
    :func:`modelmine.bootstrap` caps it (the largest |coefficients| are kept), so subsets
    may be smaller than ``n_features`` and differ in size between bootstraps. Scores are
    |coefficients|, so the ranking is complete. Binary labels only: liblinear's L1 solver
    has no multiclass mode, and :func:`modelmine.bootstrap` refuses more classes before
    the first fit, naming ``y``.

    liblinear seeds a process-global C random generator, so two fits running at once in
    threads of one process would disturb each other's draws; fits are serialised by a lock
    (process-based parallelism, joblib's default, is unaffected).
    """

    name = "l1-logistic"
    kind: SelectorKind = "subset"
    supports_multiclass = False
    supports_weights = True

    def __init__(self, C: float = 0.1, max_iter: int = 1000):
        self.C = check_real(C, "C", "L1LogisticSelector", low=0, closed="neither")
        self.max_iter = check_int(max_iter, "max_iter", "L1LogisticSelector", min_value=1)

    def select(self, X: Any, y: np.ndarray, *, random_state: int,
               sample_weight: np.ndarray | None = None) -> SelectorOutput:
        from sklearn.linear_model import LogisticRegression

        model = LogisticRegression(
            C=self.C, l1_ratio=1.0, solver="liblinear", max_iter=self.max_iter,
            random_state=random_state,
        )
        with LIBLINEAR_LOCK:
            model.fit(X, y, sample_weight=sample_weight)
        scores = np.abs(model.coef_).sum(axis=0)
        return SelectorOutput(scores=scores, support=scores > 0)

    def get_params(self) -> dict[str, Any]:
        return {"C": self.C, "max_iter": self.max_iter}


class RandomForestSelector(Selector):
    """Impurity-based importances of a random forest (PKDD 2008 "RF"); sample weights go
    to :meth:`sklearn.ensemble.RandomForestClassifier.fit`. For ``outcome="regression"``
    (:meth:`~modelmine.selectors.Selector.for_outcome`) the forest is a
    :class:`~sklearn.ensemble.RandomForestRegressor` (variance reduction)."""

    name = "random-forest"
    supports_weights = True
    outcomes = ("classification", "regression")

    def __init__(self, n_estimators: int = 100, max_features: str | float = "sqrt"):
        self.n_estimators = check_int(n_estimators, "n_estimators", "RandomForestSelector",
                                      min_value=1)
        self.max_features = max_features

    def select(self, X: Any, y: np.ndarray, *, random_state: int,
               sample_weight: np.ndarray | None = None) -> SelectorOutput:
        from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor

        cls = (RandomForestClassifier if outcome_kind(self.outcome).classes
               else RandomForestRegressor)
        forest = cls(
            n_estimators=self.n_estimators, max_features=self.max_features,
            random_state=random_state, n_jobs=1,
        ).fit(X, y, sample_weight=sample_weight)
        return SelectorOutput(scores=forest.feature_importances_)

    def get_params(self) -> dict[str, Any]:
        return {"n_estimators": self.n_estimators, "max_features": self.max_features}


_BUILTIN_SELECTORS: tuple[type[Selector], ...] = (
    Chi2Selector, AnovaSelector, InfoGainSelector, SymmetricalUncertaintySelector,
    ReliefFSelector, SVMRFESelector, SVMOneSelector, L1LogisticSelector,
    RandomForestSelector, CFSSelector, GainRatioSelector, OneRSelector, MRMRSelector,
    SVMRFE50Selector, PearsonSelector, LassoSelector, ElasticNetSelector, RReliefFSelector,
    SVRRFESelector, CoxScoreSelector, CoxnetSelector, BoostedCoxSelector, WilcoxonSelector,
    WelchTSelector, LogRegSelector,
)

#: The entry-point group through which installed packages add selectors.
SELECTOR_ENTRY_POINT_GROUP = "modelmine.selectors"


class SelectorRegistry(Registry[Entry]):
    """Selectors by name: the built-ins, decorated classes and entry-point plugins.

    The operator registry's pattern (:mod:`modelmine._registry`): ``register_selector``
    as a decorator, the ``modelmine.selectors`` entry-point group (a plugin lists
    ``name = "module:SelectorClass"``), lazy discovery with ``refresh()``, loud conflicts,
    closest-name errors and one ``available()`` shape. An entry's kind is the selector's
    ``kind``: "scores", "ranking" or "subset" (:class:`Selector`).
    """

    def __init__(self, *, group: str | None = SELECTOR_ENTRY_POINT_GROUP,
                 builtins: bool = True) -> None:
        super().__init__("selector", group=group,
                         builtins=_register_builtin_selectors if builtins else None)

    def _entry(self, cls: Any, *, name: str | None, origin: str, entry_point: str | None,
               description: str | None = None) -> Entry:
        if not (isinstance(cls, type) and issubclass(cls, Selector)):
            raise TypeError(f"{cls!r} is not a subclass of modelmine.selectors.Selector")
        name = name or cls.name
        if not isinstance(name, str) or not name.strip() or name == Selector.name:
            raise param_error("name", "register_selector", "a non-empty selector name (or a "
                              "'name' class attribute)", name)
        if name != cls.name:
            # BaseModels record the selector by cls.name: the two must agree.
            raise ValueError(f"the selector is registered as {name!r} but its class "
                             f"{cls.__qualname__} says name = {cls.name!r}")
        try:
            cls()
        except TypeError as exc:
            raise TypeError(f"the selector {name!r} cannot be built without arguments "
                            f"({exc}); give every parameter a default") from None
        return Entry(name=name, kind=cls.kind, obj=cls, origin=origin,
                     entry_point=entry_point, **self.describe(cls, description))

    def _from_entry_point(self, obj: Any, *, origin: str, entry_point: str,
                          ep_name: str) -> Entry:
        return self._entry(obj, name=ep_name, origin=origin, entry_point=entry_point)

    def register(self, cls: type[Selector] | None = None, *, name: str | None = None,
                 description: str | None = None) -> Any:
        """Register a :class:`Selector` subclass under ``name`` (default: ``cls.name``);
        without ``cls``, return a decorator. A taken name raises naming both owners."""
        def deco(c: type[Selector]) -> type[Selector]:
            self._ensure()
            self._add(self._entry(c, name=name, origin=self.caller_origin(c),
                                  entry_point=None, description=description))
            return c

        return deco if cls is None else deco(cls)


def _register_builtin_selectors(registry: Registry[Entry]) -> None:
    assert isinstance(registry, SelectorRegistry)
    for cls in _BUILTIN_SELECTORS:
        registry._add(registry._entry(cls, name=None, origin=BUILT_IN, entry_point=None))


_DEFAULT = SelectorRegistry()


def default_registry() -> SelectorRegistry:
    """The registry behind :func:`get_selector` and :func:`available`."""
    return _DEFAULT


def register_selector(name: Any = None, cls: type[Selector] | None = None, *,
                      description: str | None = None) -> Any:
    """Register a :class:`Selector` subclass in the default registry (usable by name at once).

    The shape of every registry (``docs/DEVELOPING.md``, "Registries"):
    ``register_selector("fisher", Fisher)`` or ``@register_selector("fisher")``; the name
    defaults to the class's ``name`` (``@register_selector``). The earlier keyword form
    ``@register_selector(name="fisher")`` still works. Installed packages add selectors
    through the ``modelmine.selectors`` entry-point group instead.

    Parameters
    ----------
    name : str, optional
        The registered name (default: ``cls.name``). A class given here is the ``cls``
        (the bare decorator).
    cls : type, optional
        The :class:`Selector` subclass; omitted when used as a decorator.
    description : str, optional
        One line for :func:`available_selectors` (default: the docstring's first line).
    """
    if isinstance(name, type):
        name, cls = None, name
    if name is not None and not isinstance(name, str):
        raise param_error("name", "register_selector", "a string or None", name,
                          exc=TypeError)
    return _DEFAULT.register(cls, name=name, description=description)


def available_selectors() -> pd.DataFrame:
    """The selectors: name, kind, origin, description, module, entry_point (what each
    fits: :func:`selectors_for`)."""
    return _DEFAULT.available()


#: The earlier name of :func:`available_selectors`.
available = available_selectors


def weighted_selectors() -> list[str]:
    """The registered selectors that take sample weights (``supports_weights``).

    Built in: "anova" (weighted one-way ANOVA, :func:`weighted_f_classif`), "svm-rfe",
    "svm", "svm-rfe50" (``C_i = C w_i``, as libsvm), "l1-logistic" and "random-forest"
    (scikit-learn's ``sample_weight``). The discretising selectors (MDL: "ig", "su",
    "chi2", "gainratio", "oner", "cfs", "mrmr") and ReliefF have no weighted form that
    WEKA or skrebate define, so they take none; with ``weighted_resampling=True`` the
    weights draw the resamples instead and any selector works.
    """
    return [name for name in _DEFAULT.names()
            if getattr(_DEFAULT.entry(name).obj, "supports_weights", False)]


def selectors_for(outcome: Any) -> list[str]:
    """The registered selectors that fit ``outcome``, by name.

    ``outcome`` is "classification", "regression", "survival" or another registered kind
    (:func:`modelmine.outcomes.outcome_kind`); each selector's ``outcomes`` name the kinds
    it fits.

    Built in: for regression "pearson", "lasso", "elastic-net", "rrelieff",
    "random-forest", "svr-rfe"; for survival "cox-score", "coxnet", "boosted-cox"
    (``docs/outcomes.md``).
    """
    kind = outcome_kind(outcome, func="selectors_for")
    return [name for name in _DEFAULT.names() if kind.fits(_DEFAULT.entry(name).obj)]


def refresh() -> None:
    """Rescan the ``modelmine.selectors`` entry points of the default registry."""
    _DEFAULT.refresh()


def params_from_record(name: Any, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """The parameters a stored record of the selector ``name`` means: what
    :meth:`Selector.params_from_record` of its registered class makes of ``params``
    (a record written before a default changed keeps its meaning). A name not registered
    here (a plugin not installed, a custom selector) keeps its parameters as they are.

    The one reading of stored selector parameters: :meth:`modelmine.RunSpec.from_settings`
    (``run.json``, ``checkpoint.json``, a BaseModels file's settings), :func:`record_from_file`
    (a BaseModels file's selector record, a bootstrap manifest) call it.
    """
    if isinstance(name, str) and name in _DEFAULT:
        return _DEFAULT.entry(name).obj.params_from_record(dict(params or {}))
    return dict(params or {})


def record_from_file(record: Mapping[str, Any]) -> dict[str, Any]:
    """A stored selector record (``{"name", "kind", "params", ...}``, as
    :meth:`Selector.describe` writes it) with its parameters as they are meant
    (:func:`params_from_record`); a heterogeneous ensemble's records each."""
    out = dict(record)
    params = out.get("params")
    if not isinstance(params, Mapping):
        return out
    if out.get("kind") == "heterogeneous" and isinstance(params.get("selectors"), list):
        out["params"] = {**params, "selectors": [
            record_from_file(r) if isinstance(r, Mapping) else r
            for r in params["selectors"]]}
    else:
        out["params"] = params_from_record(out.get("name"), params)
    return out


def get_selector(spec: Any, params: dict[str, Any] | None = None, *,
                 func: str = "bootstrap") -> Selector:
    """Resolve a selector spec: a built-in name, a Selector, an estimator or a callable.

    Parameters
    ----------
    spec : str, Selector, scikit-learn estimator or callable
        A registered name (see :func:`available`); a :class:`Selector`; an estimator
        with ``coef_`` or ``feature_importances_`` after fitting, or a ``SelectorMixin``; a
        callable ``(X, y) -> scores``.
    params : dict, optional
        Parameters of a built-in selector (for example ``{"n_neighbors": 5}``).
    func : str
        The public function asking, for error messages.
    """
    params = dict(params or {})
    if isinstance(spec, str):
        if spec not in _DEFAULT:
            listed = ", ".join(repr(s) for s in _DEFAULT.names())
            raise _DEFAULT.unknown(spec, func, "selector", f"one of {listed}, a Selector, a "
                                   "scikit-learn estimator or a callable")
        cls = _DEFAULT.entry(spec).obj
        try:
            return cls(**params)
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

