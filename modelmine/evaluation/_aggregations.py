"""compare_aggregations(): Salman's comparison of five aggregation functions (Salman 2022).

Salman (2022, Sections 3.3 and 4.4) compares the score-based aggregations (arithmetic
mean, geometric mean, L2 norm) and the rank-based ones (Robust Rank Aggregation, Stuart)
within one selector's bootstrap ensemble (WAM):

- *stability*: a stratified f-fold cross-validation (100 folds there); on each training
  part, b bootstraps of the selector (1,000 there), aggregated by each function into one
  rank vector; the f rank vectors of a function are compared pairwise: Spearman's rank
  correlation of the full rankings, Canberra's distance, and the Jaccard index of the top
  25 % of the features (Section 3.3.1); the average standard deviation (ASD) of the
  selector's min-max normalised bootstrap scores describes the selector itself;
- *accuracy*: the data are split 2/3 : 1/3; the bootstrap ensemble of the training part
  is aggregated by each function; the top 10 %, 20 %, ..., 100 % of the features are
  evaluated by a stratified 5-fold cross-validation of a classifier (Naive Bayes) on the
  test part; the weighted average accuracy ``WAcc = sum_k (1 - k) acc_k / sum_k (1 - k)``
  over k = 10 % .. 90 % summarises a curve (Section 4.3).

A rank vector is built from the aggregated scores with ties sharing their average rank
(as R's ``rank``): Stuart's Q is exactly 1 (or not computable) for many features, and those
ties weigh in Spearman's correlation. The total order of the operator's signature (ties
broken by mean rank, then index) is reported too (``spearman_ordered``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold, cross_val_score
from threadpoolctl import threadpool_limits

from .._data import check_dataset
from .._doors import door
from .._utils import FrozenDict, ImmutableSlots, frozen, readonly
from ..base_models import bootstrap
from ..diagnostics import (
    canberra_stability,
    jaccard_stability,
    score_std_stability,
    spearman_stability,
)
from ..operators import Signature, aggregate, get_operator
from ..operators._two_level import LOWER_IS_BETTER
from ..selectors import average_ranks, get_selector
from ..spec import PRESETS, RunSpec
from ..validation import check_int, check_real, param_error
from ._adjustment import refuse_covariates
from ._classifiers import resolve_classifiers
from ._folds import SeedPlan, make_folds, run_tasks, seed_plan
from ._vocabulary import one_of, renamed

__all__ = ["SALMAN_AGGREGATIONS", "AggregationComparison", "compare_aggregations"]

_FUNC = "compare_aggregations"

#: Salman's five aggregations (AM, GM, L2, RRA, Stuart) as modelmine operators.
SALMAN_AGGREGATIONS: tuple[str, ...] = ("meanScore", "geomMean", "l2Norm", "rra", "stuart")


class AggregationComparison(ImmutableSlots):
    """Stability and accuracy of aggregation functions (Salman 2022, Tables 4.5-4.6).

    Attributes
    ----------
    stability : DataFrame
        A copy on each access, as the other tables. One row per aggregation:
        ``spearman`` (tied ranks), ``spearman_ordered`` (the signature's total order),
        ``canberra`` (normalised; lower is more stable),
        ``jaccard_top`` (Jaccard of the top ``top_fraction``), ``n_ties`` (mean number of
        features sharing a rank with another one in a rank vector).
    accuracy : DataFrame
        One row per (aggregation, threshold): the mean 5-fold accuracy on the test part.
    wacc : DataFrame
        The weighted average accuracy of each aggregation.
    asd : float
        Average standard deviation of the selector's normalised bootstrap scores (the
        first fold's training part); NaN for a ranking-only selector.
    settings : mapping
    rank_vectors : mapping aggregation -> ndarray of shape (f, p)
        Each fold's rank vector (ties sharing their average rank), read-only.
    train_indices : tuple of ndarray
        The training records of each fold, read-only.
    spec : RunSpec or None
        The settings of the folds' base models (each fold's with its seed).

    The result is immutable all the way down (attributes, mappings and arrays), like
    :class:`modelmine.evaluation.ThresholdResult`.
    """

    __slots__ = ("_tables", "asd", "rank_vectors", "settings", "spec", "train_indices")

    def __init__(self, *, stability: pd.DataFrame, accuracy: pd.DataFrame,
                 wacc: pd.DataFrame, asd: float, settings: Mapping[str, Any] | None = None,
                 rank_vectors: Mapping[str, np.ndarray] | None = None,
                 train_indices: Sequence[np.ndarray] = (), spec: Any = None) -> None:
        set_ = object.__setattr__
        set_(self, "_tables", {"stability": stability.copy(), "accuracy": accuracy.copy(),
                               "wacc": wacc.copy()})
        set_(self, "asd", float(asd))
        set_(self, "settings", frozen(dict(settings or {})))
        set_(self, "rank_vectors", FrozenDict({k: readonly(v, copy=True)
                                               for k, v in (rank_vectors or {}).items()}))
        set_(self, "train_indices", tuple(readonly(t, copy=True) for t in train_indices))
        set_(self, "spec", spec)

    _tables: dict[str, pd.DataFrame]
    asd: float
    settings: Mapping[str, Any]
    rank_vectors: Mapping[str, np.ndarray]
    train_indices: tuple[np.ndarray, ...]
    spec: Any

    def __repr__(self) -> str:
        names = list(self._tables["stability"].get("aggregation", []))
        return f"AggregationComparison(aggregations={names}, asd={self.asd:.4g})"

    @property
    def stability(self) -> pd.DataFrame:
        """A copy of the stability table (see the class docstring)."""
        return self._tables["stability"].copy()

    @property
    def accuracy(self) -> pd.DataFrame:
        """A copy of the accuracy table."""
        return self._tables["accuracy"].copy()

    @property
    def wacc(self) -> pd.DataFrame:
        """A copy of the weighted-average-accuracy table."""
        return self._tables["wacc"].copy()


def _rank_vectors(base: Any, names: Sequence[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per aggregation: (tied rank vector, total-order rank vector) of the p features."""
    p = base.n_features_in
    out = {}
    for name in names:
        sig = aggregate(base, name, n_features=p)
        assert isinstance(sig, Signature)
        key = np.asarray(sig.scores, dtype=np.float64)
        if sig.score_name in LOWER_IS_BETTER:
            key = -key
        key = np.where(np.isnan(key), -np.inf, key)
        full = np.empty(p)
        full[sig.features] = key
        tied = average_ranks(full)
        ordered = np.empty(p, dtype=np.float64)
        ordered[sig.features] = np.arange(1, p + 1)
        out[name] = (tied, ordered)
    return out


def _fold_task(
    X: Any,
    y: np.ndarray,
    payload: dict[str, Any],
    *,
    spec: RunSpec,
    names: Sequence[str],
) -> dict[str, Any]:
    train = payload["train"]
    with threadpool_limits(limits=1):
        base = bootstrap(X[train], y[train], n_jobs=1, progress=False,
                         spec=spec.replace(_FUNC, random_state=payload["seed"]))
        vectors = _rank_vectors(base, names)
    scores = None if base.scores is None else np.asarray(base.scores, dtype=np.float64)
    return {"vectors": vectors, "scores": scores}


@door("compare_aggregations", study=True, stage="models", preset=PRESETS["salman2022"],
      # the selector is the protocol's ``selectors`` (one: the vocabulary of the
      # evaluations); Salman's accuracy needs classes; no per-class panels or covariates
      without=("selector", "outcome", "per_class", "covariates"))
def compare_aggregations(
    X: Any,
    y: Any,
    *,
    selectors: Any = None,
    operators: Sequence[str] = SALMAN_AGGREGATIONS,
    n_folds: int = 10,
    top_fraction: float = 0.25,
    thresholds: Sequence[float] = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    classifiers: Any = "naive-bayes",
    test_fraction: float = 1 / 3,
    feature_names: Any = None,
    n_jobs: int | None = None,
    executor: Any = None,
    progress: bool | None = None,
    spec: RunSpec,
    run: Any = None,
    **old_names: Any,
) -> AggregationComparison:
    """Salman's comparison of aggregation functions: stability and accuracy (WAM).

    Salman (2022, Sections 3.3, 4.3.2 and 4.4): see the module docstring for the two
    parts. Salman's full setting (100 folds, 1,000 bootstraps) takes hours here; the
    defaults are reduced (10 folds, 50 bootstraps: the ``salman2022`` preset), and say so
    in the result's settings. The base models of every fold are the call's settings (or
    those of ``spec=`` / ``run=``) with the fold's seed.

    Parameters
    ----------
    X, y : the data (any form :func:`modelmine.bootstrap` accepts)
    **settings
    selectors : str or Selector, or a list of one, optional
        One selector (Salman: information gain and mRMR); default: the settings' (the
        preset's ``"ig"``).
    operators : sequence of str
        The aggregations compared: single-model operators (default: Salman's five,
        :data:`SALMAN_AGGREGATIONS`).
    n_folds : int, default=10
        f, folds of the stability cross-validation (Salman: 100).
    top_fraction : float in (0, 1], default=0.25
        The top fraction compared by Jaccard's index.
    thresholds : sequence of float in (0, 1]
        Fractions of the features kept for the accuracy curves.
    classifiers : str or estimator, or a list of one, default="naive-bayes"
    test_fraction : float in (0, 1), default=1/3
    feature_names, n_jobs, executor, progress
        As in :func:`modelmine.evaluate`.
    **old_names
        The former names, still accepted: ``selector`` (``selectors``), ``aggregations``
        (``operators``), ``classifier`` (``classifiers``).

    Returns
    -------
    AggregationComparison
    """
    refuse_covariates(spec, _FUNC, param="spec" if run is None else "run",
                      what="settings" if run is None else "a run")
    given = renamed(_FUNC, old_names, {
        "selector": ("selectors", selectors, None),
        "aggregations": ("operators", operators, SALMAN_AGGREGATIONS),
        "classifier": ("classifiers", classifiers, "naive-bayes")})
    aggregations = given["operators"]
    classifier = one_of(given["classifiers"], "classifiers", _FUNC, "classifier")
    data = check_dataset(X, y, func=_FUNC, feature_names=feature_names)
    chosen = given["selectors"]
    if chosen is not None:  # the settings with that selector (and their parameters)
        value = one_of(chosen, "selectors", _FUNC, "selector")
        named = isinstance(value, str)
        spec = spec.replace(_FUNC, selector=value if named else get_selector(value, func=_FUNC),
                            selector_params=spec.selector_params if named else None)
    sel = spec.selectors[0]
    if isinstance(aggregations, str) or not aggregations:
        raise param_error("operators", _FUNC, "a non-empty list of operator names", aggregations)
    names = []
    for name in aggregations:
        op = get_operator(name)
        if op.kind != "single":
            raise param_error("operators", _FUNC, "single-model operators", name)
        if op.name in names:
            raise param_error("operators", _FUNC, "distinct operators", aggregations)
        names.append(op.name)
    f = check_int(n_folds, "n_folds", _FUNC, min_value=2)
    b = spec.n_bootstraps
    top = check_real(top_fraction, "top_fraction", _FUNC, low=0.0, high=1.0, closed="right")
    tf = check_real(test_fraction, "test_fraction", _FUNC, low=0.0, high=1.0, closed="neither")
    ths = [float(t) for t in thresholds]
    if not ths or any(not (0 < t <= 1) for t in ths):
        raise param_error("thresholds", _FUNC, "fractions in (0, 1]", thresholds)
    clf = resolve_classifiers(classifier, _FUNC)
    ((clf_label, clf_est),) = clf.items()
    assert f is not None and b is not None and top is not None and tf is not None
    if np.bincount(data.y).min() < f:
        raise param_error(
            "n_folds",
            _FUNC,
            f"at most the size of the smallest class ({np.bincount(data.y).min()})",
            f,
        )
    p = data.n_features_in
    # Salman's folds, each fold's seed and the accuracy split's ("salman2022").
    seeds = seed_plan(spec.random_state, n_folds=f, derivation="salman2022", func=_FUNC)
    cv_folds = make_folds(data.y, n_folds=f, seeds=seeds, func=_FUNC)
    tasks: dict[int, dict[str, Any]] = {
        i: {"train": fold.train, "seed": seeds.units[i][0]} for i, fold in enumerate(cv_folds)
    }
    folds = run_tasks(_fold_task, data.X, data.y, tasks,
                      dict(spec=spec, names=names), executor=executor,
                      n_jobs=n_jobs, func=_FUNC, label="compare_aggregations", unit="fold",
                      progress=progress)

    k_top = max(1, round(top * p))
    rows = []
    rank_vectors = {}
    for name in names:
        tied = np.vstack([folds[i]["vectors"][name][0] for i in range(f)])
        tied.flags.writeable = False
        rank_vectors[name] = tied
        ordered = np.vstack([folds[i]["vectors"][name][1] for i in range(f)])
        n_ties = float(np.mean([p - np.unique(r).size for r in tied]))
        rows.append(
            {
                "aggregation": name,
                "spearman": spearman_stability(tied).value,
                "spearman_ordered": spearman_stability(ordered).value,
                "canberra": canberra_stability(ordered).value,
                "jaccard_top": jaccard_stability(ordered <= k_top).value,
                "n_ties": n_ties,
            }
        )
    first_scores = folds[0]["scores"]
    asd = math.nan if first_scores is None else score_std_stability(first_scores).value

    # Accuracy curves: one 2/3 : 1/3 split, the ensemble of the training part.
    acc_seed = seeds.extra["accuracy"]
    (held_out,) = make_folds(data.y, n_folds=1, scheme="holdout", test_fraction=tf, sort=False,
                             seeds=SeedPlan(seeds.derivation, seeds.entropy, (acc_seed,), ()),
                             func=_FUNC)
    train, test = held_out.train, held_out.test
    with threadpool_limits(limits=1):
        base = bootstrap(data.X[train], data.y[train], n_jobs=n_jobs, progress=False,
                         spec=spec.replace(_FUNC, random_state=acc_seed))
    vectors = _rank_vectors(base, names)
    X_te, y_te = data.X[test], data.y[test]
    n_cv = max(2, min(5, int(np.bincount(y_te).min())))
    inner = StratifiedKFold(n_splits=n_cv, shuffle=True, random_state=seeds.extra["inner"])
    acc_rows = []
    for name in names:
        order = np.argsort(vectors[name][1], kind="stable")
        for t in ths:
            feats = order[: max(1, round(t * p))]
            Xs = X_te[:, feats]
            if hasattr(Xs, "toarray") and clf_label == "naive-bayes":
                Xs = Xs.toarray()
            acc = cross_val_score(clf_est, Xs, y_te, cv=inner, scoring="accuracy")
            acc_rows.append({"aggregation": name, "threshold": t, "accuracy": acc.mean()})
    accuracy = pd.DataFrame(acc_rows)
    w_rows = []
    for name in names:
        part = accuracy[(accuracy.aggregation == name) & (accuracy.threshold < 1.0)]
        w = 1.0 - part["threshold"].to_numpy()
        w_rows.append(
            {
                "aggregation": name,
                "wacc": float(np.sum(w * part["accuracy"]) / np.sum(w)) if w.size else math.nan,
            }
        )
    settings = {
        "selector": sel.describe(),
        "n_folds": f,
        "n_bootstraps": b,
        "top_fraction": top,
        "classifier": clf_label,
        "test_fraction": tf,
        "random_state": seeds.entropy,
        "seed_derivation": seeds.derivation,
        "fold_seeds": [u[0] for u in seeds.units],
        "accuracy_seed": acc_seed,
        "salman_setting": "100 folds, 1000 bootstraps",
    }
    return AggregationComparison(
        stability=pd.DataFrame(rows),
        accuracy=accuracy,
        wacc=pd.DataFrame(w_rows),
        asd=float(asd),
        settings=settings,
        rank_vectors=rank_vectors,
        train_indices=tuple(tasks[i]["train"] for i in range(f)),
        spec=spec,
    )
