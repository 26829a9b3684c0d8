"""The selector interface: (X, y) -> scores, a ranking, or a subset.

A base feature model in Woznica, Nguyen and Kalousis (KDD 2012, section 2) comes in three
representations: a weighting (scores), a ranking and a subset. A selector produces at least
one of them; :func:`model_from_output` derives the others with one documented rule:

- higher score = more relevant; ranks are 1 = best;
- ties in scores are broken by feature index: the lower index ranks better (a stable sort
  of the negated scores), so rankings never depend on hash or thread order;
- the subset is the top ``n_features`` of the ranking, except for selectors that choose
  their own subset (``kind == "subset"``, such as L1 models), whose subset is kept as
  chosen and only capped at ``n_features`` (the features with the best ranks are kept).
"""

from __future__ import annotations

import inspect
import numbers
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from sklearn.base import clone

from .._utils import jsonable
from ..outcomes import DEFAULT_OUTCOME, outcome_kind
from ..outcomes._target import SURVIVAL_DTYPE
from ..validation import param_error

__all__ = [
    "CallableSelector",
    "EstimatorSelector",
    "FeatureModel",
    "Selector",
    "SelectorOutput",
    "average_ranks",
    "model_from_output",
    "ranks_from_scores",
]

#: liblinear (LogisticRegression and LinearSVC with the liblinear solver) is not safe to run
#: from several threads at once: every liblinear fit of modelmine holds this lock.
LIBLINEAR_LOCK = threading.Lock()

SelectorKind = Literal["scores", "ranking", "subset"]


@dataclass(frozen=True)
class SelectorOutput:
    """What a selector returns for one fit: any of scores, ranking (1 = best) and support."""

    scores: np.ndarray | None = None
    ranking: np.ndarray | None = None
    support: np.ndarray | None = None


@dataclass(frozen=True)
class FeatureModel:
    """One base feature model in its three representations (KDD 2012, section 2)."""

    scores: np.ndarray | None
    ranks: np.ndarray
    subset: np.ndarray


def ranks_from_scores(scores: np.ndarray) -> np.ndarray:
    """Ranks (1 = best) from scores (higher = better); ties go to the lower feature index.

    Parameters
    ----------
    scores : ndarray of shape (p,)

    Returns
    -------
    ndarray of int32, shape (p,)
    """
    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")
    ranks = np.empty(order.size, dtype=np.int32)
    ranks[order] = np.arange(1, order.size + 1, dtype=np.int32)
    return ranks


def average_ranks(scores: np.ndarray) -> np.ndarray:
    """Ranks (1 = best) in which exactly tied scores share their average rank.

    The total order of :func:`ranks_from_scores` is needed to cut a ranking into a subset,
    but averaging it over models (avgRank, Stuart, RRA, Spearman stability) would favour
    low-index features wherever a selector gives many features the same score (random
    forest importances or information gain are exactly 0 for most genes). Rank
    aggregations therefore use these "fractional" ranks (Kendall and Gibbons, 1990).

    Parameters
    ----------
    scores : ndarray of shape (p,) or (b, p)
        Higher = better; ranks are computed along the last axis.

    Returns
    -------
    ndarray of float32, the same shape: exact (half-integers at most, p < 2**23).
    """
    from scipy.stats import rankdata

    return rankdata(-np.asarray(scores, dtype=np.float64), method="average",
                    axis=-1).astype(np.float32)


def _door_labels(y: Any, owner: str, method: str) -> np.ndarray:
    """Class labels as a selector's methods need them: non-negative integer codes.

    Non-negative integers pass as they are (the codes :func:`modelmine.bootstrap` hands
    over, where a resample may miss a class); any other labels (strings, -1/1, booleans,
    floats that are whole numbers such as 2.0 and 5.0) become the codes 0..K-1 of their
    sorted distinct values, so relabelling never changes a result. Continuous values are
    refused, naming the selector's method.
    """
    arr = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    func = f"{owner}.{method}"
    if arr.ndim != 1:
        raise param_error("y", func, "a 1-D array of class labels",
                          f"an array of shape {arr.shape}", show=False)
    if arr.dtype.kind in "iu":
        if arr.size == 0 or arr.min() >= 0:
            return arr
    elif arr.dtype.kind == "f":
        if not np.isfinite(arr).all() or (arr != np.round(arr)).any():
            raise param_error("y", func, "class labels (a continuous target has values "
                              "that are not whole numbers)", "a continuous array",
                              show=False)
    elif arr.dtype.kind not in "bUSO":
        raise param_error("y", func, "class labels", f"an array of dtype {arr.dtype}",
                          exc=TypeError, show=False)
    try:
        _, codes = np.unique(arr, return_inverse=True)
    except TypeError:  # mixed types: compare as text
        _, codes = np.unique(arr.astype(str), return_inverse=True)
    return codes.astype(np.intp).reshape(-1)


def _door_y(selector: Any, y: Any, owner: str, method: str) -> Any:
    """The target as the selector's outcome needs it: class codes (:func:`_door_labels`),
    float64 values (regression) or the event / time structured array (survival)."""
    kind = outcome_kind(getattr(selector, "outcome", DEFAULT_OUTCOME))
    if kind.classes:
        return _door_labels(y, owner, method)
    if kind.censored:
        arr = np.asarray(y)
        if arr.dtype == SURVIVAL_DTYPE:
            return arr
        from ..outcomes import survival_arrays

        event, time = survival_arrays(y, f"{owner}.{method}")
        out = np.empty(event.size, dtype=SURVIVAL_DTYPE)
        out["event"], out["time"] = event, time
        return out
    arr = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
    if arr.ndim != 1 or arr.dtype.kind not in "iufb" or not np.isfinite(
            arr.astype(np.float64)).all():
        raise param_error("y", f"{owner}.{method}", "a 1-D array of finite numbers (a "
                          "continuous target)", f"an array of shape {arr.shape} and dtype "
                          f"{arr.dtype}", show=False)
    return arr.astype(np.float64, copy=False)


def _door_X(X: Any, owner: str, method: str, float32: bool = False) -> Any:
    """X as a selector's methods need it: a float64 ndarray or CSR matrix (array-likes and
    DataFrames converted, sparse formats to CSR); what is already so passes untouched, and
    so does a float32 CSR matrix for a selector that takes it (``float32``: it computes
    in float64 on its own slices, and an atlas is not copied whole)."""
    import scipy.sparse as sp

    if sp.issparse(X):
        if X.format == "csr" and (X.dtype == np.float64
                                  or (float32 and X.dtype == np.float32)):
            return X
        return sp.csr_matrix(X, dtype=np.float64)
    if isinstance(X, np.ndarray) and X.dtype == np.float64 and X.ndim == 2:
        return X
    try:
        arr = np.asarray(X.to_numpy() if hasattr(X, "to_numpy") else X, dtype=np.float64)
    except (TypeError, ValueError):
        raise param_error("X", f"{owner}.{method}", "a numeric 2-D array-like",
                          type(X).__name__, exc=TypeError, show=False) from None
    if arr.ndim != 2:
        raise param_error("X", f"{owner}.{method}", "a 2-D array-like",
                          f"an array of shape {arr.shape}", show=False)
    return arr


def _at_the_door(method: Callable[..., Any], name: str) -> Callable[..., Any]:
    """Wrap a selector method so that it takes any array-like X and any class labels."""
    import functools

    if getattr(method, "_modelmine_door", False):
        return method

    if name == "select_rows":
        @functools.wraps(method)
        def rows_door(self: Any, prepared: Any, X: Any, y: Any, rows: Any,
                      **kwargs: Any) -> Any:
            return method(self, prepared, _door_X(X, type(self).__name__, name,
                                                  self.takes_float32),
                          _door_y(self, y, type(self).__name__, name), rows, **kwargs)

        rows_door._modelmine_door = True  # type: ignore[attr-defined]
        return rows_door

    @functools.wraps(method)
    def door(self: Any, X: Any, y: Any, *args: Any, **kwargs: Any) -> Any:
        return method(self, _door_X(X, type(self).__name__, name, self.takes_float32),
                      _door_y(self, y, type(self).__name__, name), *args, **kwargs)

    door._modelmine_door = True  # type: ignore[attr-defined]
    return door


class Selector(ABC):
    """A feature selector usable by :func:`modelmine.bootstrap`.

    Subclasses set ``name`` and ``kind`` and implement :meth:`select`, which receives
    validated data: ``X`` as float64 ndarray or CSR matrix without NaN, ``y`` as int class
    codes 0..K-1, and a ``random_state`` integer for selectors that draw random numbers.
    Called directly, ``select``, ``prepare`` and ``select_rows`` of every subclass take
    any array-like X and any class labels (strings, -1/1, floats that are classes): they
    are converted at the door, as scikit-learn estimators do, so the results do not
    depend on how the classes are spelled.
    """

    name: str = "selector"
    kind: SelectorKind = "scores"
    supports_sparse: bool = True
    supports_multiclass: bool = True
    #: Whether :meth:`select` takes ``sample_weight=`` (a keyword, an array of shape
    #: (n_samples,) of non-negative weights) and fits the weighted problem.
    #: :func:`modelmine.bootstrap` passes the weights of the resample's rows to such
    #: selectors and refuses weights for the others, naming them.
    supports_weights: bool = False
    #: The outcomes the selector fits (names of :func:`modelmine.outcomes.outcome_kind`):
    #: a run of another outcome refuses it by name, unless that outcome is fitted as one of
    #: these (:attr:`~modelmine.outcomes.OutcomeKind.fitted_as`). One selector class may
    #: fit several (the random forest: a classifier or a regressor); :meth:`for_outcome`
    #: picks one.
    outcomes: tuple[str, ...] = ("classification",)
    #: Whether :meth:`prepare` depends on the labels. When it does not, the per-class
    #: panels (each class against the rest) prepare the data once for all the classes.
    prepare_uses_labels: bool = True
    #: Whether the methods take a float32 CSR matrix as it is (they compute in float64 on
    #: the slices they read): a single-cell atlas is then never copied whole to float64.
    takes_float32: bool = False
    #: Parameters every record states even at their default (:meth:`get_params`, and the
    #: ``selector_params`` of a :class:`~modelmine.RunSpec`, hence of ``run.json``): their
    #: default changed once, and a record must say what it ran. :meth:`params_from_record`
    #: reads the records written before.
    always_recorded: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("select", "prepare", "select_rows"):
            if name in cls.__dict__ and not getattr(cls.__dict__[name],
                                                    "__isabstractmethod__", False):
                setattr(cls, name, _at_the_door(cls.__dict__[name], name))

    @property
    def outcome(self) -> str:
        """The outcome this selector fits: the first of :attr:`outcomes` unless
        :meth:`for_outcome` chose another."""
        return str(self.__dict__.get("_outcome", self.outcomes[0]))

    def for_outcome(self, outcome: Any, func: str = "Selector.for_outcome") -> Selector:
        """A copy of the selector that fits ``outcome`` (a name or an
        :class:`~modelmine.outcomes.OutcomeKind`; refused when it cannot): the selector
        fits the values of the kind it is fitted as (:attr:`OutcomeKind.fitted_as`)."""
        import copy

        kind = outcome_kind(outcome, func=func)
        if not kind.fits(self):
            fits = " or ".join(repr(o) for o in self.outcomes)
            raise param_error("selector", func, f"a selector for outcome={kind.name!r}",
                              f"{self.name!r}, which fits {fits} only", show=False)
        if kind.fitted_as == self.outcome:
            return self
        out = copy.copy(self)
        out.__dict__["_outcome"] = kind.fitted_as
        return out

    @abstractmethod
    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        """Fit on (X, y) and return scores, a ranking or a support mask."""

    def prepare(self, X: Any, y: np.ndarray) -> Any:
        """Work that every resample of ``(X, y)`` can share, computed once (None: none).

        :func:`modelmine.bootstrap` calls it once per chunk of resamples of the same data
        and passes the result to :meth:`select_rows`. Overriding it is an optimisation
        only: ``select_rows`` must return exactly what ``select(X[rows], y[rows])`` would.
        """
        return None

    def prepare_nbytes(self, X: Any, y: np.ndarray) -> int:
        """Bytes :meth:`prepare` of ``(X, y)`` takes at its peak, estimated without doing it.

        Woznica, Nguyen and Kalousis (KDD 2012, Section 5) fit the selector on b bootstraps
        of the same rows; :meth:`prepare` computes what they share once per chunk of them
        (issue 37). :func:`modelmine.bootstrap` asks for this estimate before the first fit:
        when every worker's copy would take more than half of the memory available, the
        resamples fit on their own rows instead (:meth:`select` on ``X[rows]``, the same
        base models by :meth:`select_rows`' contract, more time) and a warning gives the
        figures. An upper bound is what the check needs; the built-in selectors bound
        their arrays by the data's shape and non-zeros.

        Parameters
        ----------
        X : ndarray or scipy.sparse matrix of shape (n_samples, n_features_in)
            The data the resamples will be drawn from.
        y : ndarray of shape (n_samples,)
            Its labels (or target), as :meth:`prepare` receives them.

        Returns
        -------
        int
            Bytes; 0 (the default): nothing shared, or a plugin that gives no estimate
            (its :meth:`prepare` then always runs).
        """
        return 0

    def select_rows(self, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
                    random_state: int) -> SelectorOutput:
        """Fit on the resample ``X[rows], y[rows]`` (rows may repeat), reusing ``prepared``
        (what :meth:`prepare` returned for the same ``X, y``). Default: :meth:`select`."""
        return self.select(X[rows], y[rows], random_state=random_state)

    def select_rows_one_vs_rest(self, prepared: list[Any], X: Any, y: np.ndarray,
                                rows: np.ndarray, classes: tuple[int, ...], *,
                                random_state: int) -> list[SelectorOutput]:
        """Fit each class of ``classes`` (codes of ``y``) against the rest on the resample
        ``rows``: one :class:`SelectorOutput` per class, in order, each what
        ``select_rows(prepared[i], X, y == classes[i], rows)`` returns (the per-class panels
        of :func:`modelmine.run`). ``prepared[i]`` is :meth:`prepare` of that class's labels
        (the same object for every class when ``prepare_uses_labels`` is False). Default:
        one :meth:`select_rows` per class; a selector whose classes share work overrides
        it (the ANOVA computes every class's F from one pass over the resample)."""
        return [self.select_rows(prepared[i], X, (y == c).astype(np.int64), rows,
                                 random_state=random_state) for i, c in enumerate(classes)]

    def get_params(self) -> dict[str, Any]:
        """The selector's parameters, JSON-serialisable, for the provenance record."""
        return {}

    @classmethod
    def params_from_record(cls, params: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters a stored record of this selector means (``run.json``,
        ``checkpoint.json``, a BaseModels file or bootstrap manifest, an evaluation cache).

        Default: ``params`` as they are. A selector whose default changed overrides it, so
        that a record written before the change, which left the parameter out, still
        builds the selector that made it.

        Parameters
        ----------
        params : mapping
            The recorded parameters (what :meth:`get_params` wrote, then or now).

        Returns
        -------
        dict
            Parameters for the selector's class.
        """
        return dict(params)

    def describe(self) -> dict[str, Any]:
        """Name, kind and parameters, as stored in :class:`modelmine.BaseModels`."""
        out = {"name": self.name, "kind": self.kind,
               "params": jsonable(self.get_params(), unknown="repr")}
        if self.outcome != DEFAULT_OUTCOME:  # the records of classes name none
            out["outcome"] = self.outcome
        return out

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({params})"


def model_from_output(
    output: SelectorOutput, *, n_features_in: int, n_features: int | None, selector: str
) -> FeatureModel:
    """Turn a selector's output into the three representations, checking it on the way.

    Parameters
    ----------
    output : SelectorOutput
    n_features_in : int
        The number of features p of the data.
    n_features : int or None
        The subset size m (a cap for selectors that choose their own subset). None keeps
        a subset-kind selector's whole support; it is required for ranking selectors.
    selector : str
        The selector's name, used in error messages.
    """
    p = n_features_in
    scores = ranking = support = None
    if output.scores is not None:
        scores = np.asarray(output.scores, dtype=np.float64)
        if scores.shape != (p,):
            raise ValueError(
                f"Selector {selector!r} returned scores of shape {scores.shape}; expected "
                f"({p},), one score per feature."
            )
        if not np.all(np.isfinite(scores)):
            bad = np.flatnonzero(~np.isfinite(scores))
            raise ValueError(
                f"Selector {selector!r} returned {bad.size} non-finite score(s) (NaN or inf), "
                f"for example at feature index {bad[0]}; scores must be finite."
            )
    if output.ranking is not None:
        ranking = np.asarray(output.ranking)
        if ranking.shape != (p,) or not np.issubdtype(ranking.dtype, np.integer):
            raise ValueError(
                f"Selector {selector!r} returned a ranking of shape {ranking.shape} and dtype "
                f"{ranking.dtype}; expected integers of shape ({p},)."
            )
        if ranking.min(initial=1) < 1:
            raise ValueError(f"Selector {selector!r} returned a ranking with ranks below 1.")
    if output.support is not None:
        support = np.asarray(output.support)
        if support.shape != (p,):
            raise ValueError(
                f"Selector {selector!r} returned a support mask of shape {support.shape}; "
                f"expected ({p},)."
            )
        support = support.astype(bool)
    if scores is None and ranking is None and support is None:
        raise ValueError(f"Selector {selector!r} returned neither scores, ranking nor support.")

    if ranking is not None:
        # A ranking may have ties (e.g. sklearn RFE.ranking_): break them by score, then index.
        key2 = -scores if scores is not None else np.zeros(p)
        order = np.lexsort((np.arange(p), key2, ranking))
        ranks = np.empty(p, dtype=np.int32)
        ranks[order] = np.arange(1, p + 1, dtype=np.int32)
    elif scores is not None:
        ranks = ranks_from_scores(scores)
    else:
        assert support is not None
        ranks = ranks_from_scores(support.astype(np.float64))

    if support is not None:
        subset = support.copy()
        if n_features is not None and subset.sum() > n_features:
            subset &= ranks <= _cutoff_rank(ranks, subset, n_features)
    else:
        if n_features is None:
            raise ValueError(
                f"Selector {selector!r} ranks features; 'n_features' is needed to cut the "
                "ranking into a subset."
            )
        subset = ranks <= n_features
    return FeatureModel(scores=scores, ranks=ranks, subset=subset)


def _cutoff_rank(ranks: np.ndarray, subset: np.ndarray, m: int) -> int:
    """The largest rank such that the m best-ranked members of ``subset`` are kept."""
    return int(np.sort(ranks[subset])[m - 1])


class CallableSelector(Selector):
    """Wrap a callable ``f(X, y) -> scores`` (higher = more relevant) as a selector.

    It fits any outcome: ``y`` is what the run's outcome makes it (class codes, floats,
    or the event / time structured array)."""

    kind: SelectorKind = "scores"
    outcomes: tuple[str, ...] = ("classification", "regression", "survival")

    def __init__(self, func: Callable[..., Any], name: str | None = None):
        self.func = func
        self.name = str(name or getattr(func, "__name__", "callable"))
        try:
            self._takes_seed = "random_state" in inspect.signature(func).parameters
        except (TypeError, ValueError):
            self._takes_seed = False

    def select(self, X: Any, y: np.ndarray, *, random_state: int) -> SelectorOutput:
        out = (
            self.func(X, y, random_state=random_state) if self._takes_seed else self.func(X, y)
        )
        if isinstance(out, SelectorOutput):
            return out
        if isinstance(out, tuple):  # sklearn's score_func convention: (scores, pvalues)
            out = out[0]
        return SelectorOutput(scores=np.asarray(out, dtype=np.float64))

    def get_params(self) -> dict[str, Any]:
        module = getattr(self.func, "__module__", None)
        qual = getattr(self.func, "__qualname__", repr(self.func))
        return {"callable": f"{module}.{qual}" if module else qual}


class EstimatorSelector(Selector):
    """Wrap a scikit-learn estimator as a selector.

    - an estimator with ``coef_`` gives scores ``|coef_|`` (the sum of absolute values
      over classes for multiclass ``coef_``), ``feature_importances_`` gives those scores;
    - a ``SelectorMixin`` with ``ranking_`` (such as :class:`sklearn.feature_selection.RFE`)
      gives that ranking (its ties broken by feature index), and one without gives its
      ``get_support()`` as a subset (``kind="subset"``).

    The estimator is cloned for every fit; an integer ``random_state`` parameter, when the
    estimator has one, is set from the bootstrap's own seed so fits are reproducible.
    """

    def __init__(self, estimator: Any, name: str | None = None):
        from sklearn.feature_selection import SelectorMixin

        if not hasattr(estimator, "fit"):
            raise param_error(
                "selector", "bootstrap", "a selector name, a Selector, a scikit-learn "
                "estimator or a callable (X, y) -> scores", estimator, exc=TypeError,
            )
        self.estimator = estimator
        self.name = name or type(estimator).__name__
        self._is_selector = isinstance(estimator, SelectorMixin)
        from sklearn.utils.validation import has_fit_parameter

        # Weights when fit's signature names sample_weight (LogisticRegression, forests;
        # not RFE or SelectFromModel, whose fit takes **fit_params).
        self.supports_weights = has_fit_parameter(estimator, "sample_weight")
        from sklearn.base import is_regressor

        if type(estimator).__module__.startswith("sksurv"):
            self.outcomes = ("survival",)
        elif is_regressor(estimator):  # a regressor fitted on class codes, as before
            self.outcomes = ("classification", "regression")
        has_ranking = "ranking_" in _fitted_attribute_names(estimator)
        if self._is_selector and not has_ranking:
            self.kind = "subset"
        elif self._is_selector:
            self.kind = "ranking"
        else:
            self.kind = "scores"

    def select(self, X: Any, y: np.ndarray, *, random_state: int,
               sample_weight: np.ndarray | None = None) -> SelectorOutput:
        est = clone(self.estimator)
        params = est.get_params()
        seeded = {k: random_state for k in params if k.endswith("random_state")
                  and (params[k] is None or isinstance(params[k], numbers.Integral))}
        if seeded:
            est.set_params(**seeded)
        fit_params = {} if sample_weight is None else {"sample_weight": sample_weight}
        if _uses_liblinear(est):
            with LIBLINEAR_LOCK:
                est.fit(X, y, **fit_params)
        else:
            est.fit(X, y, **fit_params)
        if self._is_selector:
            ranking = getattr(est, "ranking_", None)
            support = est.get_support()
            if ranking is not None:
                return SelectorOutput(ranking=np.asarray(ranking, dtype=np.int64))
            return SelectorOutput(support=support)
        if hasattr(est, "coef_"):
            coef = np.asarray(est.coef_, dtype=np.float64)
            p = X.shape[1]
            if (coef.ndim == 2 and coef.shape[0] == p
                    and outcome_kind(self.outcome).censored):
                # scikit-survival's penalised paths: features x penalties, the last
                # (smallest) penalty is the fitted model
                scores = np.abs(coef[:, -1])
            else:
                scores = np.abs(coef) if coef.ndim == 1 else np.abs(coef).sum(axis=0)
            return SelectorOutput(scores=scores)
        if hasattr(est, "feature_importances_"):
            return SelectorOutput(scores=np.asarray(est.feature_importances_, dtype=np.float64))
        raise ValueError(
            f"Selector {self.name!r}: the fitted estimator has neither coef_, "
            "feature_importances_ nor a support; it cannot score features."
        )

    def get_params(self) -> dict[str, Any]:
        return {"estimator": repr(self.estimator)}


def _uses_liblinear(estimator: Any) -> bool:
    """liblinear's global C random state is not thread-safe (see L1LogisticSelector)."""
    from sklearn.svm import LinearSVC

    params = estimator.get_params()
    return isinstance(estimator, LinearSVC) or any(
        v == "liblinear" for k, v in params.items() if k.endswith("solver"))


def _fitted_attribute_names(estimator: Any) -> set[str]:
    # RFE / RFECV expose ranking_; SelectFromModel, SelectKBest, VarianceThreshold do not.
    from sklearn.feature_selection import RFE

    return {"ranking_"} if isinstance(estimator, RFE) else set()
