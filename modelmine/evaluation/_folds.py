"""The one fold engine of the evaluation protocols: folds, seeds and the runner.

Every protocol of :mod:`modelmine.evaluation` (KDD'12 :func:`~modelmine.evaluate`, its
continuous and survival outcomes, Pes's :func:`~modelmine.evaluation.evaluate_thresholds`, Salman's
:func:`~modelmine.evaluation.compare_aggregations`, grouped folds) asks this module for

- its **folds** (:func:`make_folds`): stratified k-fold cross-validation (by class, by the
  outcome's strata, by event), grouped with ``groups`` (no group on both sides), or a
  repeated stratified hold-out (Pes's T train/test splits);
- its **seeds** (:func:`seed_plan`): everything from ``numpy.random.SeedSequence(seed)``,
  one spawned child per fold or repeat, so that no result depends on the order in which
  tasks finish or on the number of workers;
- its **runner** (:func:`run_tasks`): one task per (unit, fold) on joblib (``n_jobs``) or a
  Dask cluster (``executor``), results put in place by task id; and the cache of a fold's
  base models (:class:`BaseModelCache`).

A protocol states only what differs: its scheme, its strata and its seed derivation.

Seed derivations
----------------
The engine's policy is ``"kdd12"``: ``SeedSequence(seed).spawn(n_folds + 1)``; the first
child's first 32-bit word seeds the splitter and child ``f + 1``'s first word is fold f's
seed, shared by every unit (selector) of the fold, so the selectors are compared on the
same resamples. A new protocol uses it. Three protocols were published with another
derivation before the engine existed; their results are committed (``docs/studies.md``,
``tests/test_published_*.py``), so each keeps it, recorded here by name and in the
result's ``settings["seed_derivation"]`` (:data:`SEED_DERIVATIONS`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold, StratifiedShuffleSplit

from .._progress import progress_bar
from ..base_models import BaseModels, seed_sequence
from ..base_models._executors import Runner
from ..outcomes import DEFAULT_OUTCOME
from ..spec import resolve_seed
from ..validation import param_error

__all__ = [
    "SEED_DERIVATIONS",
    "BaseModelCache",
    "Fold",
    "SeedPlan",
    "make_folds",
    "run_tasks",
    "seed_plan",
]

_WORD = 2**31 - 1  # the modulus of the "pes2019" and "salman2022" derivations

#: How each protocol derives its seeds from ``SeedSequence(seed)`` (recorded in results).
SEED_DERIVATIONS: Mapping[str, str] = {
    "kdd12": "SeedSequence(seed).spawn(n_folds + 1): child 0's first word seeds the split, "
             "child f+1's first word is fold f's seed (every selector of the fold)",
    "outcome": "legacy (continuous and survival outcomes, issue 27): the split seeded by "
               "seed % 2**32, fold f's base models by the seed seed + f",
    "pes2019": "SeedSequence(seed).spawn(T): repeat t's child, first word mod 2**31-1, "
               "seeds its split; its s-th spawned child (same reduction) seeds selector s",
    "salman2022": "SeedSequence(seed).spawn(n_folds + 2), first words mod 2**31-1: the "
                  "last seeds the folds, child f fold f, child n_folds the accuracy split "
                  "(and, mod 10007, its inner folds)",
}


@dataclass(frozen=True)
class SeedPlan:
    """The seeds of one evaluation, derived from one seed by a named derivation.

    Attributes
    ----------
    derivation : str
        A key of :data:`SEED_DERIVATIONS`.
    entropy : int
        The protocol's seed (:func:`modelmine.spec.resolve_seed`), recorded in results.
    split : tuple of int
        The splitter's seed (k-fold: one) or each repeat's (hold-out: one per repeat).
    units : tuple of tuple of int
        ``units[f][u]``: the seed of unit u (a selector) on fold or repeat f.
    extra : mapping
        Further seeds a protocol names (Salman's accuracy split).
    """

    derivation: str
    entropy: int
    split: tuple[int, ...]
    units: tuple[tuple[int, ...], ...]
    extra: Mapping[str, int] = field(default_factory=dict)


def seed_plan(random_state: Any, *, n_folds: int, n_units: int = 1,
              derivation: str = "kdd12", func: str = "evaluate") -> SeedPlan:
    """The seeds of ``n_folds`` folds (or repeats) x ``n_units`` units.

    Parameters
    ----------
    random_state : None, int, SeedSequence, RandomState or Generator
        As :func:`modelmine.spec.resolve_seed` takes it (None draws, and the plan records,
        fresh entropy).
    n_folds, n_units : int
    derivation : str, default="kdd12"
        A key of :data:`SEED_DERIVATIONS`.
    func : str
        The public function, for messages.
    """
    if derivation == "outcome":
        seed = resolve_seed(random_state, func)
        return SeedPlan(derivation, seed, (seed % 2**32,),
                        tuple((seed + f,) * n_units for f in range(n_folds)))
    ss = seed_sequence(random_state, func)
    entropy = int(ss.entropy)  # type: ignore[arg-type]
    if derivation == "kdd12":
        split_ss, *fold_ss = ss.spawn(n_folds + 1)
        return SeedPlan(derivation, entropy, (int(split_ss.generate_state(1)[0]),),
                        tuple((int(c.generate_state(2)[0]),) * n_units for c in fold_ss))
    if derivation == "pes2019":
        splits, units = [], []
        for child in ss.spawn(n_folds):
            splits.append(int(child.generate_state(1)[0] % _WORD))
            units.append(tuple(int(g.generate_state(1)[0] % _WORD)
                               for g in child.spawn(n_units)))
        return SeedPlan(derivation, entropy, tuple(splits), tuple(units))
    if derivation == "salman2022":
        words = [int(c.generate_state(1)[0] % _WORD) for c in ss.spawn(n_folds + 2)]
        return SeedPlan(derivation, entropy, (words[-1],),
                        tuple((w,) * n_units for w in words[:n_folds]),
                        {"accuracy": words[n_folds], "inner": words[n_folds] % 10007})
    raise param_error("derivation", "seed_plan", "one of " + ", ".join(
        map(repr, SEED_DERIVATIONS)), derivation)


@dataclass(frozen=True)
class Fold:
    """One split: the row indices of its training and its test part."""

    train: np.ndarray
    test: np.ndarray


def make_folds(strata: np.ndarray, *, n_folds: int, seeds: SeedPlan, groups: Any = None,
               scheme: str = "kfold", train_fraction: float | None = None,
               test_fraction: float | None = None, sort: bool = True,
               every_stratum: bool = False, func: str = "evaluate") -> tuple[Fold, ...]:
    """The folds of a protocol.

    Parameters
    ----------
    strata : ndarray of int of shape (n_samples,)
        What the folds are stratified by: the classes, the outcome's quantile bins, or
        the event indicator (:func:`modelmine.outcomes.check_outcome`).
    n_folds : int
        k for ``"kfold"``; the number of repeats T for ``"holdout"``.
    seeds : SeedPlan
        ``seeds.split[0]`` seeds the k-fold splitter, ``seeds.split[t]`` repeat t.
    groups : array-like of shape (n_samples,), optional
        k-fold only: scikit-learn's ``StratifiedGroupKFold`` (shuffled), no group on both
        sides of a split.
    scheme : {"kfold", "holdout"}
        Stratified (grouped) k-fold cross-validation, or ``n_folds`` stratified
        train/test splits (``StratifiedShuffleSplit``) holding ``train_fraction`` (or
        leaving ``test_fraction``) of the samples.
    sort : bool, default=True
        Hold-out parts in ascending row order (k-fold parts always are).
    every_stratum : bool, default=False
        With groups: refuse (naming ``groups``) a fold whose training or test part misses
        a stratum.
    func : str
        The public function, for messages.
    """
    n = strata.size
    if scheme == "holdout":
        folds = []
        for t in range(n_folds):
            splitter = StratifiedShuffleSplit(n_splits=1, train_size=train_fraction,
                                              test_size=test_fraction,
                                              random_state=seeds.split[t])
            train, test = next(splitter.split(np.zeros(n), strata))
            if sort:
                train, test = np.sort(train), np.sort(test)
            folds.append(Fold(np.asarray(train, np.intp), np.asarray(test, np.intp)))
        return tuple(folds)
    if groups is None:
        cv: Any = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=seeds.split[0])
        parts = cv.split(np.zeros(n), strata)
    else:
        cv = StratifiedGroupKFold(n_splits=n_folds, shuffle=True, random_state=seeds.split[0])
        parts = cv.split(np.zeros(n), strata, np.asarray(groups))
    folds_ = tuple(Fold(np.asarray(tr, np.intp), np.asarray(te, np.intp)) for tr, te in parts)
    if groups is not None and every_stratum:
        n_strata = int(strata.max()) + 1
        for f, fold in enumerate(folds_):
            for part, rows in (("training", fold.train), ("test", fold.test)):
                held = np.unique(strata[rows]).size
                if held < n_strata:
                    raise param_error(
                        "groups", func, f"groups that let each of the {n_folds} grouped "
                        "folds hold every class (fewer n_folds, or more groups per class)",
                        f"fold {f}'s {part} part with {held} of the {n_strata} classes",
                        show=False)
    return folds_


def run_tasks(fn: Callable[..., Any], X: Any, y: Any, tasks: dict[int, Any],
              kwargs: dict[str, Any], *, executor: Any = None, n_jobs: int | None = None,
              func: str, label: str, unit: str = "task",
              progress: bool | None = None) -> dict[int, Any]:
    """``{task id: fn(X, y, payload, **kwargs)}`` over every task, on joblib (``n_jobs``)
    or a Dask cluster (``executor``), with a progress bar; put in place by task id, so the
    result never depends on the order in which tasks finish."""
    runner = Runner(executor, n_jobs, func=func)
    bar = progress_bar(len(tasks), label, unit, progress)
    results: dict[int, Any] = {}
    try:
        for tid, out in runner.run(fn, X, y, tasks, kwargs):
            results[tid] = out
            bar.update(1)
    finally:
        bar.close()
        runner.close()
    return results


class BaseModelCache:
    """A directory of the base models of each (selector, fold), keyed by the data
    fingerprint, the fold's training rows, the selector's description, b, m and the seed
    (and the outcome, when it is not classes), so a rerun loads them instead of refitting.
    """

    VERSION = 1

    def __init__(self, directory: Any, func: str) -> None:
        self.directory = None if directory is None else Path(directory)
        if self.directory is not None and self.directory.exists() \
                and not self.directory.is_dir():
            raise param_error("cache_dir", func, "a directory", str(self.directory))

    def key(self, *, fingerprint: str, fold: int, train: np.ndarray, selector: Any,
            n_bootstraps: int, n_features: int | None, seed: int,
            outcome: str = DEFAULT_OUTCOME, spec: Any = None) -> dict[str, Any]:
        """The key of one (selector, fold)'s base models: the data, the fold, the
        selector's record, b, m, the seed, and every other setting of the fold's ``spec``
        that shapes base models and differs from the table's default (resampling,
        scaling, ...: none for the KDD'12 defaults, whose keys are those of earlier
        caches)."""
        key = {"version": self.VERSION, "data": fingerprint, "fold": fold,
               "train": hashlib.sha256(train.tobytes()).hexdigest(), "selector": selector,
               "n_bootstraps": n_bootstraps, "n_features": n_features, "seed": int(seed),
               "n_train": int(train.size)}
        if outcome != DEFAULT_OUTCOME:  # classification keys are those of earlier caches
            key["outcome"] = outcome
        if spec is not None:
            other = _other_settings(spec)
            if other:
                key["settings"] = other
        return key

    def path(self, label: str, key: Mapping[str, Any]) -> str | None:
        """Where the base models of ``key`` are kept (None without a cache)."""
        if self.directory is None:
            return None
        digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:20]
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", label)
        return str(self.directory / f"{safe}_fold{key['fold']:02d}_{digest}.npz")

    @staticmethod
    def load(path: str | None, key: Mapping[str, Any],
             feature_names: Any = None) -> BaseModels | None:
        """The cached base models when they exist and match the key, else None.

        With ``feature_names`` (the names a fit of the data as given now would record),
        models cached under other names of the same columns are given these names: the
        key's fingerprint is of the values, so a cache written before a renaming (issue
        52's positional ``x{j}`` for unnamed columns) or for a copy of the data with other
        column names holds the same selections, and must not put the old names in the
        signatures."""
        if path is None or not Path(path).exists():
            return None
        try:
            base = BaseModels.load(path)
        except ValueError:
            return None  # a corrupt file is recomputed (and overwritten)
        if (base.selector != key["selector"] or base.n_models != key["n_bootstraps"]
                or base.n_features != key["n_features"] or base.random_state != key["seed"]
                or base.n_samples != key["n_train"]):
            return None
        if feature_names is not None:
            names = np.asarray(feature_names).astype(str)
            if names.shape != base.feature_names.shape:
                return None
            if not np.array_equal(names, base.feature_names):
                base = dataclasses.replace(base, feature_names=names)
        return base

    @staticmethod
    def store(path: str | None, base: BaseModels) -> None:
        """Keep ``base`` at ``path`` (nothing without a cache)."""
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            base.save(path)


#: Settings a cache key holds already (or that do not shape a fold's base models there).
_KEYED = ("selector", "selector_params", "n_bootstraps", "n_features", "random_state",
          "outcome", "fit_full", "scale")


def _other_settings(spec: Any) -> dict[str, Any]:
    """The settings of a fold's spec that shape base models, differ from the table's
    defaults and are not keyed otherwise (the selector's record holds its scale)."""
    from ..spec import SETTINGS, RunSpec

    plain = RunSpec(selector=spec.selector if isinstance(spec.selector, str) else None,
                    outcome=spec.outcome, n_bootstraps=spec.n_bootstraps, operators=())
    mine, default = spec.to_settings(), plain.to_settings()
    out = {}
    for one in SETTINGS:
        if one.stage != "models" or one.name in _KEYED:
            continue
        *path, last = one.stored.split(".")
        a, b = mine, default
        for part in path:
            a, b = a.get(part, {}), b.get(part, {})
        if a.get(last) != b.get(last):
            out[one.stored] = a.get(last)
    return out


def fold_parts(sequence: Sequence[Fold]) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The folds as (train, test) pairs of copies, as results keep them."""
    return tuple((f.train.copy(), f.test.copy()) for f in sequence)


def fold_covariates(covariates: Any, n: int, y: Any, outcome: Any, design: Any,
                    selectors: list[Any], *, func: str) -> Any:
    """The covariates of an evaluation, checked before any fold is fitted: encoded (as
    :func:`modelmine.run` encodes them), not explaining the outcome exactly, without
    weights given to the selectors, and each selector able to take them (a classification
    selector outside ``CLASS_ADJUSTMENT`` is named in a warning; a survival selector that
    cannot take them is refused)."""
    if covariates is None:
        return None
    from ..outcomes import check_covariates
    from ..outcomes._covariates import check_not_explained
    from ..selectors._covariates import adjusted

    covs = check_covariates(covariates, n, func=func)
    check_not_explained(covs.values, y, outcome, func=func)
    if design.sample_weight is not None and not design.weighted_resampling:
        raise param_error("covariates", func, "no covariates with sample weights given to "
                          "the selectors (pass weighted_resampling=True to draw the "
                          "resamples by weight instead)", list(covs.sources), show=False)
    for sel in selectors:
        adjusted(sel.for_outcome(outcome, func) if hasattr(sel, "for_outcome") else sel,
                 covs, func=func)
    return covs
