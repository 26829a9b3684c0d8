"""evaluate_thresholds(): Pes's protocol, simple vs bootstrap-ensemble rankers (Pes 2019).

Pes (2019, Section 3.3) measures, for each ranker, how stable and how predictive the top
``th`` features are when the ranker is used *simple* (fitted once on a training set) or
as a homogeneous *ensemble* (fitted on B bootstraps of the training set, the B rankings
aggregated by mean rank), across a range of thresholds th:

1. T random training sets, each holding a fraction X of the records (the rest is the
   test set; stratified here, so that every class is in both parts);
2. on each training set, the simple ranking and the ensemble ranking of every ranker;
3. for each threshold th (a fraction of the p features), the top ``round(th * p)``
   features of each ranking; stability = the average pairwise Kuncheva index of the T
   subsets (Section 3.3, Eq. 2); performance = the AUC of a classifier trained on the
   subset (training part) and tested on the test part, averaged over the T splits
   (one-vs-rest macro average for more than two classes).

One task per (selector, split) runs with joblib (``n_jobs``) or on a Dask cluster
(``executor``); every random choice is seeded from ``SeedSequence(random_state)`` so the
result does not depend on how the work is spread.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from .._data import check_dataset
from .._deprecation import renamed_accessor
from .._doors import door
from .._utils import FrozenDict, ImmutableSlots, frozen, readonly
from ..base_models import bootstrap
from ..diagnostics import kuncheva_stability, signature_performance
from ..operators import Signature, aggregate, get_operator
from ..selectors import get_selector, model_from_output
from ..spec import PRESETS, RunSpec
from ..validation import check_choice, check_int, check_real, param_error
from ._adjustment import refuse_covariates
from ._choices import resolve_selectors
from ._classifiers import resolve_classifiers
from ._folds import make_folds, run_tasks, seed_plan
from ._vocabulary import one_of, renamed

__all__ = [
    "PES_SELECTORS",
    "PES_SELECTOR_PARAMS",
    "PES_THRESHOLDS",
    "ThresholdResult",
    "evaluate_thresholds",
]

_FUNC = "evaluate_thresholds"

#: Pes (2019, Table 1): chi2, InfoG, GainR, OneR, ReliefF (distance-weighted), SVM-AW,
#: SVM-RFE10, SVM-RFE50. ReliefF's weighting is asked with ``selector_params``.
PES_SELECTORS: tuple[str, ...] = (
    "chi2",
    "ig",
    "gainratio",
    "oner",
    "relieff",
    "svm",
    "svm-rfe",
    "svm-rfe50",
)

#: Pes's ReliefF is WEKA's distance-weighted one (the default parameters of the protocol).
PES_SELECTOR_PARAMS: dict[str, dict[str, Any]] = {"relieff": {"weight_by_distance": True}}

#: Thresholds from 0.2 % to 40 % of the features (Pes 2019, Section 4.1).
PES_THRESHOLDS: tuple[float, ...] = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4)


class ThresholdResult(ImmutableSlots):
    """Stability and AUC of simple and ensemble rankers across thresholds (Pes 2019).

    Attributes
    ----------
    table : DataFrame
        A copy on each access. One row per (selector, mode, threshold): ``selector``,
        ``mode`` ("simple" or "ensemble"), ``threshold`` (fraction of p), ``n_features``
        (the subset size), ``stability`` (average pairwise Kuncheva index over the T
        splits; NaN when the subset holds all p features), ``stability_std`` (standard
        deviation of the pairwise values: the spread), ``auc`` and ``auc_std`` (mean and
        standard deviation over the T splits).
    settings : mapping
        Read-only. The protocol's parameters (n_splits, train_fraction, n_bootstraps,
        aggregation, classifier, random_state).
    orders : mapping (selector, mode) -> ndarray of shape (T, max subset size)
        The top features of each split's ranking, best first (read-only).
    train_indices : ndarray of shape (T, n_train)
        The training records of each split (the others are its test records), read-only.
    spec : RunSpec or None
        The settings of the ensembles' base models (each with its ranker and seed).

    The result is immutable all the way down: its attributes cannot be set, its mappings
    are read-only and its arrays cannot be written through, so a result shared between
    analyses (or cached) cannot be changed by one of them.
    """

    __slots__ = ("_table", "orders", "settings", "spec", "train_indices")

    def __init__(self, *, table: pd.DataFrame, settings: Mapping[str, Any] | None = None,
                 orders: Mapping[tuple[str, str], np.ndarray] | None = None,
                 train_indices: np.ndarray | None = None, spec: Any = None) -> None:
        set_ = object.__setattr__
        set_(self, "_table", table.copy())
        set_(self, "settings", frozen(dict(settings or {})))
        set_(self, "orders", FrozenDict({k: readonly(v, copy=True)
                                         for k, v in (orders or {}).items()}))
        set_(self, "train_indices",
             None if train_indices is None else readonly(train_indices, copy=True))
        set_(self, "spec", spec)

    _table: pd.DataFrame
    settings: Mapping[str, Any]
    orders: Mapping[tuple[str, str], np.ndarray]
    train_indices: np.ndarray | None
    spec: Any

    def __repr__(self) -> str:
        sel = list(dict.fromkeys(self._table.get("selector", [])))
        n_th = self._table["threshold"].nunique() if "threshold" in self._table else 0
        return f"ThresholdResult(selectors={sel}, n_thresholds={n_th})"

    @property
    def table(self) -> pd.DataFrame:
        """Deprecated: :meth:`to_frame`."""
        renamed_accessor("ThresholdResult", "table", "to_frame()")
        return self._table.copy()

    def to_frame(self) -> pd.DataFrame:
        """A copy of the result table (columns selector, mode, threshold, stability, auc,
        ...; see the class docstring)."""
        return self._table.copy()

    def gain(self) -> pd.DataFrame:
        """Ensemble minus simple, per (selector, threshold): stability and AUC differences."""
        wide = self._table.pivot_table(
            index=["selector", "threshold"], columns="mode", values=["stability", "auc"], sort=False
        )
        out = pd.DataFrame(
            {
                "stability_gain": wide[("stability", "ensemble")] - wide[("stability", "simple")],
                "auc_gain": wide[("auc", "ensemble")] - wide[("auc", "simple")],
            }
        )
        return out.reset_index()

    def plot(self, selectors: Sequence[str] | None = None) -> Any:
        """Pes's figures: stability and AUC against the threshold, simple vs ensemble.

        One row of two panels (stability, AUC) per selector; solid lines for the
        ensemble, dashed for the simple ranker. Returns the matplotlib Figure.
        """
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt

        names = (
            list(dict.fromkeys(self._table["selector"])) if selectors is None else list(selectors)
        )
        fig, axes = plt.subplots(len(names), 2, figsize=(9, 2.6 * len(names)), squeeze=False)
        for row, name in zip(axes, names):
            sub = self._table[self._table["selector"] == name]
            for mode, style in (("simple", "--"), ("ensemble", "-")):
                part = sub[sub["mode"] == mode]
                row[0].plot(
                    100 * part["threshold"], part["stability"], style, marker="o", label=mode
                )
                row[1].plot(100 * part["threshold"], part["auc"], style, marker="o", label=mode)
            row[0].set_ylabel(f"{name}\nKuncheva")
            row[1].set_ylabel("AUC")
            for ax in row:
                ax.set_xscale("log")
                ax.grid(alpha=0.3)
        axes[-1][0].set_xlabel("threshold (% of features)")
        axes[-1][1].set_xlabel("threshold (% of features)")
        axes[0][0].legend(loc="lower right")
        fig.tight_layout()
        return fig


def _check_thresholds(thresholds: Any) -> tuple[float, ...]:
    try:
        values = [float(v) for v in thresholds]
    except TypeError:
        raise param_error(
            "thresholds", _FUNC, "a sequence of fractions in (0, 1]", thresholds, exc=TypeError
        ) from None
    if not values:
        raise param_error(
            "thresholds", _FUNC, "a non-empty sequence of fractions in (0, 1]", thresholds
        )
    bad = [v for v in values if not (0.0 < v <= 1.0) or math.isnan(v)]
    if bad:
        raise param_error(
            "thresholds",
            _FUNC,
            "fractions of the features in (0, 1]",
            thresholds,
            hint=f"Out of range: {bad}.",
        )
    if any(b <= a for a, b in itertools.pairwise(values)):
        raise param_error("thresholds", _FUNC, "strictly increasing", thresholds)
    return tuple(values)


def _task(
    X: Any,
    y: np.ndarray,
    payload: dict[str, Any],
    *,
    counts: list[int],
    aggregation: str,
    classifier: Any,
) -> dict[str, Any]:
    """One (selector, split): simple and ensemble rankings, subsets and AUCs."""
    train, test = payload["train"], payload["test"]
    # the split's settings: the selector's, the split's seed, m the largest threshold's
    spec = payload["spec"].replace(_FUNC, n_features=max(counts),
                                   random_state=payload["seed"])
    sel = spec.selectors[0]
    X_tr, y_tr, X_te, y_te = X[train], y[train], X[test], y[test]
    p = X.shape[1]
    # Rankings break ties by feature index; relabelling the features by a seeded random
    # permutation makes that a random tie-break (see ``tie_break``).
    perm = payload["perm"]
    X_sel = X_tr if perm is None else X_tr[:, perm]
    n_max = max(counts)
    out: dict[str, Any] = {}
    with threadpool_limits(limits=1):
        model = model_from_output(
            sel.select(X_sel, y_tr, random_state=payload["seed"]),
            n_features_in=p,
            n_features=n_max,
            selector=sel.name,
        )
        simple = np.argsort(model.ranks, kind="stable")[:n_max]
        base = bootstrap(X_sel, y_tr, spec=spec, n_jobs=1, progress=False)
        agg = aggregate(base, aggregation, n_features=n_max)
        assert isinstance(agg, Signature)
        ensemble = agg.features
        if perm is not None:
            simple, ensemble = perm[simple], perm[ensemble]
        for mode, order in (("simple", simple), ("ensemble", ensemble)):
            aucs = []
            for m in counts:
                perf = signature_performance(classifier, X_tr, y_tr, X_te, y_te, order[:m])
                aucs.append(perf.auc)
            out[mode] = {"order": np.asarray(order[:n_max]), "auc": np.asarray(aucs)}
    return out


@door("evaluate_thresholds", study=True, stage="models", preset=PRESETS["pes2019"],
      # the rankers compared and their parameters per label are the protocol's own; the
      # thresholds decide m; Pes's AUC needs classes; no per-class panels or covariates
      without=("selector", "selector_params", "n_features", "outcome", "per_class",
               "covariates"))
def evaluate_thresholds(
    X: Any,
    y: Any,
    *,
    selectors: Any = PES_SELECTORS,
    selector_params: Any = None,
    thresholds: Sequence[float] = PES_THRESHOLDS,
    n_folds: int = 20,
    train_fraction: float = 0.8,
    operators: Any = "avgRank",
    classifiers: Any = "svm",
    tie_break: str = "random",
    feature_names: Any = None,
    n_jobs: int | None = None,
    executor: Any = None,
    progress: bool | None = None,
    spec: RunSpec,
    run: Any = None,
    **old_names: Any,
) -> ThresholdResult:
    """Pes's protocol: each ranker simple vs as a bootstrap ensemble, across thresholds.

    Pes (2019, Section 3.3): T stratified train/test splits holding ``train_fraction`` of
    the records for training; on each training set the simple ranking (the selector fitted
    once) and the ensemble ranking (B bootstraps aggregated by mean rank); for each
    threshold the top ``round(th * p)`` features (at least 1); stability = average
    pairwise Kuncheva index over the T subsets, performance = AUC on the test part. The
    ensembles' other settings are the call's (Pes's preset: B = 50 bootstraps; or those of
    ``spec=`` / ``run=``, whose scaling reaches the simple ranking too).

    Parameters
    ----------
    X : array-like, DataFrame or scipy.sparse matrix of shape (n_samples, p)
    y : array-like of shape (n_samples,)
    **settings
    selectors : sequence of str / Selector, or mapping label -> selector
        Default: Pes's eight rankers (:data:`PES_SELECTORS`). A mapping gives labels, for
        example ``{"relieff-w": Selector}``; names must be distinct and registered.
    selector_params : mapping label -> dict, optional
        Parameters of named selectors. Default: :data:`PES_SELECTOR_PARAMS` for the
        selectors it names (ReliefF distance-weighted, as Pes).
    thresholds : sequence of float in (0, 1], strictly increasing
        Fractions of the features (default :data:`PES_THRESHOLDS`, 0.2 % to 40 %).
    n_folds : int, default=20
        T, the number of stratified train/test splits (Pes: 20): the folds of a
        repeated hold-out.
    train_fraction : float in (0, 1), default=0.8
        X, the fraction of the records in each training set (Pes: 0.7, 0.8, 0.9).
    operators : str, or a list of one, default="avgRank"
        The operator aggregating the B rankings (Pes: mean rank).
    classifiers : str or scikit-learn classifier, or a list of one, default="svm"
        A built-in classifier name (:func:`modelmine.evaluation.available_classifiers`:
        "svm" is Pes's linear SVM) or an estimator.
    tie_break : {"random", "index"}, default="random"
        How features with equal scores are ordered in a ranking. modelmine's rankings
        break ties by feature index (as WEKA's Ranker); a filter that scores most
        features exactly 0 (chi2, InfoG, GainR on MDL codes: about 1,500 of colon's 2,000
        genes) then puts the same zero-scored features in every split's subset once the
        threshold passes the informative ones, and Kuncheva's index rises towards 1 for
        no reason but the labels. "random" relabels the features of each (selector,
        split) by a seeded random permutation, which turns the index tie-break into a
        random one; "index" keeps it.
    feature_names : sequence of str, optional
    n_jobs : int or None
        joblib workers over the (selector, split) tasks; the result does not depend on it.
    executor : dask.distributed.Client or str, optional
        Run the tasks on a Dask cluster instead (see ``docs/scaling.md``).
    progress : bool or None
    **old_names
        The former names, still accepted: ``n_splits`` (``n_folds``), ``aggregation``
        (``operators``), ``classifier`` (``classifiers``).

    Returns
    -------
    ThresholdResult
        ``to_frame()`` has the columns selector, mode, threshold, n_features, stability,
        stability_std, auc, auc_std; ``plot()`` draws Pes's figures. The seed of the
        whole protocol is the settings' ``random_state`` (``settings``).
    """
    refuse_covariates(spec, _FUNC, param="spec" if run is None else "run",
                      what="settings" if run is None else "a run")
    data = check_dataset(X, y, func=_FUNC, feature_names=feature_names)
    sels = resolve_selectors(selectors, _FUNC)
    if selector_params is None:
        params = {k: v for k, v in PES_SELECTOR_PARAMS.items() if k in sels and sels[k].name == k}
    elif isinstance(selector_params, dict):
        params = dict(selector_params)
        unknown = sorted(set(params) - set(sels))
        if unknown:
            raise param_error(
                "selector_params",
                _FUNC,
                "keyed by the labels of the selectors (" + ", ".join(map(repr, sels)) + ")",
                selector_params,
                hint=f"Unknown: {unknown}.",
            )
    else:
        raise param_error(
            "selector_params",
            _FUNC,
            "a mapping label -> parameters or None",
            selector_params,
            exc=TypeError,
        )
    for label, kw in params.items():
        sels[label] = get_selector(sels[label].name, kw, func=_FUNC)
    ths = _check_thresholds(thresholds)
    given = renamed(_FUNC, old_names, {
        "n_splits": ("n_folds", n_folds, 20), "aggregation": ("operators", operators, "avgRank"),
        "classifier": ("classifiers", classifiers, "svm")})
    n_folds = given["n_folds"]
    aggregation = one_of(given["operators"], "operators", _FUNC, "operator")
    classifier = one_of(given["classifiers"], "classifiers", _FUNC, "classifier")
    T = check_int(n_folds, "n_folds", _FUNC, min_value=2)
    frac = check_real(train_fraction, "train_fraction", _FUNC, low=0.0, high=1.0, closed="neither")
    B = spec.n_bootstraps
    ties = check_choice(tie_break, "tie_break", _FUNC, ["random", "index"])
    op = get_operator(aggregation) if isinstance(aggregation, str) else None
    if op is None or op.kind != "single":
        raise param_error(
            "operators",
            _FUNC,
            "the name of a single-model operator (for example 'avgRank', Pes's mean rank)",
            aggregation,
        )
    clf = resolve_classifiers(classifier, _FUNC)
    if len(clf) != 1:
        raise param_error("classifiers", _FUNC, "one classifier", classifier)
    ((clf_label, clf_est),) = clf.items()
    if n_jobs is not None and not isinstance(n_jobs, numbers.Integral):
        raise param_error("n_jobs", _FUNC, "an integer or None", n_jobs, exc=TypeError)
    assert T is not None and frac is not None and B is not None
    p = data.n_features_in
    counts = [max(1, round(t * p)) for t in ths]
    n_test = data.n_samples - round(frac * data.n_samples)
    if n_test < data.classes.size or round(frac * data.n_samples) < data.classes.size:
        raise param_error(
            "train_fraction",
            _FUNC,
            "a fraction leaving every class in both "
            f"the training and the test part ({data.n_samples} samples, "
            f"{data.classes.size} classes)",
            frac,
        )

    labels = list(sels)
    # Pes's repeated hold-out: repeat t's split and each selector's seed on it ("pes2019").
    seeds = seed_plan(spec.random_state, n_folds=T, n_units=len(labels),
                      derivation="pes2019", func=_FUNC)
    # each ranker's settings: the call's, with that ranker
    specs = {label: spec.replace(_FUNC, selector=sels[label], selector_params=None,
                                 operators=()) for label in labels}
    folds = make_folds(data.y, n_folds=T, seeds=seeds, scheme="holdout",
                       train_fraction=frac, func=_FUNC)
    tasks: dict[int, dict[str, Any]] = {}
    for t, fold in enumerate(folds):
        for s, label in enumerate(labels):
            seed_s = seeds.units[t][s]
            tasks[t * len(labels) + s] = {
                "train": fold.train,
                "test": fold.test,
                "spec": specs[label],
                "seed": seed_s,
                "perm": (
                    np.random.default_rng(seed_s).permutation(p) if ties == "random" else None
                ),
            }
    results = run_tasks(_task, data.X, data.y, tasks,
                        dict(counts=counts, aggregation=op.name, classifier=clf_est),
                        executor=executor, n_jobs=n_jobs, func=_FUNC,
                        label="evaluate_thresholds", progress=progress)

    rows = []
    orders: dict[tuple[str, str], np.ndarray] = {}
    for s, label in enumerate(labels):
        for mode in ("simple", "ensemble"):
            per_split = [results[t * len(labels) + s][mode] for t in range(T)]
            stacked = np.vstack([r["order"] for r in per_split])
            stacked.flags.writeable = False
            orders[label, mode] = stacked
            aucs = np.vstack([r["auc"] for r in per_split])  # (T, n_thresholds)
            for i, (th, m) in enumerate(zip(ths, counts)):
                if m >= p:
                    stab = stab_sd = math.nan
                else:
                    Z = np.zeros((T, p), dtype=bool)
                    for t, r in enumerate(per_split):
                        Z[t, r["order"][:m]] = True
                    res = kuncheva_stability(Z, pairwise=True)
                    assert res.pairwise is not None
                    pairs = res.pairwise[np.triu_indices(T, k=1)]
                    stab, stab_sd = float(res.value), float(pairs.std())
                col = aucs[:, i]
                rows.append(
                    {
                        "selector": label,
                        "mode": mode,
                        "threshold": th,
                        "n_features": m,
                        "stability": stab,
                        "stability_std": stab_sd,
                        "auc": float(np.nanmean(col)) if np.isfinite(col).any() else math.nan,
                        "auc_std": float(np.nanstd(col)) if np.isfinite(col).any() else math.nan,
                    }
                )
    settings = {
        "selectors": {k: specs[k].selectors[0].describe() for k in labels},
        "n_splits": T,
        "tie_break": ties,
        "train_fraction": frac,
        "n_bootstraps": B,
        "aggregation": op.name,
        "classifier": clf_label,
        "thresholds": list(ths),
        "random_state": seeds.entropy,
        "seed_derivation": seeds.derivation,
        "n_samples": data.n_samples,
        "n_features_in": p,
    }
    train_idx = np.vstack([tasks[t * len(labels)]["train"] for t in range(T)])
    train_idx.flags.writeable = False
    return ThresholdResult(
        table=pd.DataFrame(rows), settings=settings, orders=orders, train_indices=train_idx,
        spec=spec)
