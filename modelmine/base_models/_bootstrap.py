"""bootstrap(): run one selector (or several) on b resamples of the data, reproducibly.

Woznica, Nguyen and Kalousis (KDD 2012, section 3) draw b = 150 bootstrap samples and run
the selector on each; Saeys, Abeel and Van de Peer (PKDD 2008) and Pes (2019) use bootstrap
bags and subsamples without replacement (:mod:`._resampling`). Salman (2022, Section 3.2.2)
fits several selectors on the same resamples (a heterogeneous ensemble): one path here for
both, with the same checks, memory guard and artificial features (:mod:`._artificial`).

The settings arrive as one :class:`modelmine.RunSpec`, checked against the data by
:func:`._checks.check_run_data`; :func:`fit_base_models` is what :func:`modelmine.run`,
:func:`modelmine.evaluate` and the estimator call with it.

Reproducibility: the seed of bootstrap i is the i-th child of
``numpy.random.SeedSequence(seed).spawn(b)``; it draws the resample and then the
selector's own seed. Base model i therefore depends only on (seed, i), never on how the
work is split between workers nor on the selector: results are bit-identical for any
``n_jobs`` and joblib backend. Inside a worker, BLAS and OpenMP pools are limited to one
thread (with ``threadpoolctl``), which avoids oversubscription and makes floating-point
reductions independent of the number of threads.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from .._doors import door
from .._files import directory_lock
from .._progress import progress_bar
from ..exceptions import DataError
from ..outcomes import DEFAULT_OUTCOME, standardized_target
from ..selectors import FeatureModel, Selector, model_from_output
from ..spec import ARTIFICIAL_FEATURES, RESAMPLING_METHODS, SETTINGS, RunSpec
from ..validation import check_int, param_error
from ._artificial import add_artificial_features
from ._base_models import BaseModels, data_fingerprint, equal_scores_statement
from ._checks import CheckedRun, _gib, available_memory, check_run_data
from ._design import NO_DESIGN, SampleDesign
from ._executors import Runner
from ._resampling import complementary_pair, resample_indices, seed_sequence
from ._rundir import RunDirectory

__all__ = ["ARTIFICIAL_FEATURES", "RESAMPLING_METHODS", "bootstrap", "fit_base_models",
           "fit_class_models", "fit_rows", "resume"]

_FUNC = "bootstrap"

def fit_rows(selector: Selector, prepared: Any, X: Any, y: np.ndarray, rows: np.ndarray, *,
             random_state: int, weights: np.ndarray | None = None,
             shared: bool = True) -> Any:
    """The selector on the resample ``rows``: :meth:`Selector.select_rows` with the shared
    ``prepared`` work; ``select`` on ``X[rows]`` when the work is not shared (``shared``
    False: see :func:`shared_route`) or, with sample weights, on the rows with their
    weights (selectors with ``supports_weights``, checked at the door). One place for the
    bootstraps and the permutation null."""
    if weights is None and shared:
        return selector.select_rows(prepared, X, y, rows, random_state=random_state)
    if weights is None:
        return selector.select(X[rows], y[rows], random_state=random_state)
    weighted: Any = selector  # select takes sample_weight
    return weighted.select(X[rows], y[rows], random_state=random_state,
                           sample_weight=weights[rows])


def shared_route(selector: Selector, X: Any, y: Any, *, workers: int,
                 design: SampleDesign = NO_DESIGN, copies: int = 1,
                 func: str = _FUNC) -> bool:
    """Whether the chunks of a run compute the work their resamples share.

    :meth:`Selector.prepare` runs once per chunk in every worker, and a chunk holds
    ``copies`` of it (one per class when a per-class run's ``prepare`` uses the labels).
    When :meth:`Selector.prepare_nbytes` says that all the workers' copies would take more
    than half of the memory available now (issue 37: "refuse or tile beyond the run's
    memory budget"), the resamples fit on their own rows instead: :meth:`Selector.select`
    on ``X[rows]``, which :meth:`Selector.select_rows` equals by contract, so the base
    models are the same and only the time grows. A warning gives the figures. (Sample
    weights given to the selector share nothing: True.)
    """
    if design.sample_weight is not None and not design.weighted_resampling:
        return True
    need = int(selector.prepare_nbytes(X, y)) * max(1, copies)
    if need <= 0:
        return True
    available = available_memory()
    if available is None:
        return True
    budget = available // (2 * max(1, workers))
    if need <= budget:
        return True
    import warnings

    n, p = X.shape
    warnings.warn(
        f"{func}: the work the resamples of the {selector.name!r} selector would share "
        f"(Selector.prepare) takes about {_gib(need)} per worker on these {n:,} x {p:,} "
        f"data; {workers} worker(s) at once would take more than half of the "
        f"{_gib(available)} of memory available (at most {_gib(budget)} each). Each "
        "resample fits on its own rows instead: the same base models, more time (fewer "
        "workers, n_jobs, keep the shared route).", RuntimeWarning, stacklevel=3)
    return False


def _fit_chunk(
    X: Any, y: np.ndarray, seeds: list[Any], *, selector: Selector,
    method: str, fraction: float, stratify: bool, n_features: int | None,
    n_real: int | None = None, design: SampleDesign = NO_DESIGN,
    one_vs_rest: tuple[int, ...] | None = None, min_classes: int = 2,
    target: Any = None, max_per_class: int | None = None, shared: bool = True,
) -> list[tuple[np.ndarray, Any]]:
    """Fit the selector on the resamples of a chunk of bootstraps, single-threaded.

    Each element of ``seeds`` is a bootstrap's SeedSequence or, for complementary pairs,
    ``(seed, pair_seed, half)``: the pair's seed draws the split, the model's own seed
    the selector's seed, so both halves of a pair agree wherever they are computed.
    ``X`` is the data the selector sees: with artificial features, the augmented
    ``[X, A]`` (``n_real`` real columns first), for ``prepare`` and ``select_rows`` alike.
    ``design`` holds the groups (whole groups are drawn) and the sample weights (drawing
    the resample, or given to the selector's ``select`` as ``sample_weight``).
    ``one_vs_rest`` (class codes) fits the selector on each of those classes against the
    rest, on each resample drawn from the classes (the per-class panels): the resample is
    drawn once, the work the classes share is done once (a label-free ``prepare``,
    ``Selector.select_rows_one_vs_rest``), and each entry's model is then the list of the
    classes' models; ``min_classes`` is how many classes a resample must hold (every one
    for the per-class runs). ``target``: what the selector fits when the outcome is not
    the classes (regression values or the survival array); ``y`` is then its strata,
    which only draw the resamples. ``shared`` False (:func:`shared_route`): no
    :meth:`Selector.prepare`; each resample fits on its own rows.
    """
    weights = (design.sample_weight if design.sample_weight is not None
               and not design.weighted_resampling else None)
    codes = (None,) if one_vs_rest is None else one_vs_rest
    y_fits = ([target] if target is not None else
              [y if c is None else (y == c).astype(np.int64) for c in codes])
    augmented = n_real is not None and X.shape[1] != n_real

    def failed(exc: Exception) -> DataError:
        return DataError(
            f"The selector {selector.name!r} failed on the data augmented with "
            f"artificial features ({type(exc).__name__}: {exc}).")

    out = []
    with threadpool_limits(limits=1):
        # What all resamples of the data share (for example each column sorted once for
        # MDL), computed once per chunk; select_rows equals select on X[idx] exactly.
        try:
            if weights is not None or not shared:
                prepared: list[Any] = [None] * len(codes)
            elif one_vs_rest is not None and not selector.prepare_uses_labels:
                prepared = [selector.prepare(X, y_fits[0])] * len(codes)  # shared
            else:
                prepared = [selector.prepare(X, yf) for yf in y_fits]
        except Exception as exc:
            if not augmented:
                raise
            raise failed(exc) from exc
        for entry in seeds:
            if method == "complementary-pairs":
                seed, pair_seed, half = entry
                halves = complementary_pair(y, np.random.default_rng(pair_seed),
                                            stratify=stratify, design=design,
                                            min_classes=min_classes)
                idx = halves[half]
                rng = np.random.default_rng(seed)
            else:
                rng = np.random.default_rng(entry)
                idx = resample_indices(y, rng, method=method, fraction=fraction,
                                       stratify=stratify, design=design,
                                       min_classes=min_classes, max_per_class=max_per_class)
            selector_seed = int(rng.integers(0, 2**31 - 1))
            try:
                if one_vs_rest is not None and weights is None and shared:
                    outputs = selector.select_rows_one_vs_rest(
                        prepared, X, y, idx, one_vs_rest, random_state=selector_seed)
                else:
                    outputs = [fit_rows(selector, prepared[i], X, yf, idx,
                                        random_state=selector_seed, weights=weights,
                                        shared=shared)
                               for i, yf in enumerate(y_fits)]
            except Exception as exc:
                if not augmented:
                    raise
                raise failed(exc) from exc
            models = [model_from_output(o, n_features_in=X.shape[1], n_features=n_features,
                                        selector=selector.name) for o in outputs]
            out.append((idx, models if one_vs_rest is not None else models[0]))
    return out



@door("bootstrap", stage="models", positional=("selector",), fixed={"operators": ()},
      # per-class panels are mined by mm.run; covariates are columns mm.run takes out of
      # X (a spec naming them is refused)
      without=("per_class", "covariates"))
def bootstrap(
    X: Any,
    y: Any,
    *,
    feature_names: Any = None,
    n_jobs: int | None = None,
    executor: Any = None,
    run_dir: str | os.PathLike[str] | None = None,
    resume: bool = False,
    checkpoint_every: int = 10,
    progress: bool | None = None,
    groups: Any = None,
    sample_weight: Any = None,
    spec: RunSpec,
) -> BaseModels:
    """Run a feature selector on ``n_bootstraps`` resamples: the base feature models.

    The first stage of model mining (Woznica, Nguyen and Kalousis, KDD 2012, sections 2-3):
    b base models, each as scores, a ranking and a subset of ``n_features`` features.
    Reproducible: bootstrap i is seeded by the i-th child of
    ``SeedSequence(random_state)``, so the result never depends on ``n_jobs`` or the
    executor.

    Parameters
    ----------
    X : array-like, DataFrame or scipy.sparse matrix of shape (n_samples, p)
        Numeric data without NaN or inf. Sparse input stays sparse.
    y : array-like of shape (n_samples,)
        Class labels, any encoding (-1/1, 1/2, strings); two or more classes. With
        ``outcome="regression"``, numbers; with ``outcome="survival"``, a structured array
        of the event indicator and the time (``sksurv.util.Surv.from_arrays``).
    **settings
    feature_names : sequence of str, optional
        Default: the DataFrame's columns, else ``x0``, ``x1``, ...
    n_jobs : int or None
        Parallel workers (joblib; -1 = all cores). Results do not depend on it.
    executor : dask.distributed.Client or str, optional
        Run the bootstraps on a Dask cluster: a connected ``Client``, or the address of a
        scheduler (``"tcp://host:8786"``). The data are scattered to the workers once and
        chunks of bootstraps are submitted as futures; ``n_jobs`` is then ignored.
        Results are bit-identical to a serial run. See ``docs/scaling.md``.
    run_dir : path-like, optional
        Record the run in this directory: its settings, then each chunk of
        ``checkpoint_every`` finished bootstraps (atomic writes, checksums), then the
        BaseModels (``base_models.npz``). A killed run continues with ``resume=True`` (or
        :func:`resume`) and ends bit-identical to an uninterrupted one.
    resume : bool, default=False
        Continue the run recorded in ``run_dir``; its data and settings must be the same
        (``random_state=None`` takes the recorded seed, and the recorded
        ``checkpoint_every`` is kept). :func:`modelmine.resume` does the same from the
        directory alone.
    checkpoint_every : int, default=10
        Bootstraps per checkpointed chunk when ``run_dir`` is given.
    progress : bool or None
        Show a progress bar; None shows it when stderr is a terminal.
    groups : array-like of shape (n_samples,), optional
        The unit each sample belongs to (a patient with several biopsies, a donor, a
        batch): every resampling scheme then draws whole groups (the cluster bootstrap,
        Davison and Hinkley 1997, section 3.8): round(fraction x G) of the G groups for the
        bootstrap (with replacement) and subsampling, halves of floor(G/2) groups for
        complementary pairs, stratified by the groups' classes with ``stratify`` (each
        group must then hold one class). A resample's size then varies; ``sample_indices``
        pads it with -1 (:meth:`BaseModels.resample`). With artificial features, each
        permutation decoy moves whole groups' blocks of values. See ``docs/groups.md``.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights: given to the selector on each resample (selectors with
        ``supports_weights``: :func:`modelmine.selectors.weighted_selectors`; others are
        refused, by name), or drawing the resamples with ``weighted_resampling``.

    Returns
    -------
    BaseModels
        The b models, holding ``spec`` (what made them: :attr:`BaseModels.spec`).

    Examples
    --------
    >>> import modelmine as mm
    >>> X, y = mm.datasets.load_colon()
    >>> base = mm.bootstrap(X, y, selector="anova", n_bootstraps=20, n_features=10,
    ...                     random_state=0)
    >>> base.subsets.shape
    (20, 2000)
    """
    if spec.covariates:  # their values are data, which mm.run takes out of X
        raise param_error("spec", _FUNC, "settings without covariates (bootstrap fits the "
                          "selector as it is; mm.run(X, y, covariates=...) fits base models "
                          "adjusted for them)", "settings adjusted for "
                          f"{', '.join(spec.covariates)}", show=False)
    checked = check_run_data(X, y, spec, feature_names=feature_names, n_jobs=n_jobs,
                             func=_FUNC, groups=groups, sample_weight=sample_weight)
    return fit_base_models(checked, executor=executor, run_dir=run_dir, resume=resume,
                           checkpoint_every=checkpoint_every, progress=progress)


def fit_base_models(checked: CheckedRun, *, executor: Any = None,
                    run_dir: str | os.PathLike[str] | None = None, resume: bool = False,
                    checkpoint_every: int = 10, progress: bool | None = None) -> BaseModels:
    """Fit the base models of a checked specification (:func:`check_run_data`).

    The execution settings (workers, executor, checkpoints, progress) are the only
    arguments besides the checked run; everything that shapes the result is in
    ``checked.spec``. One path for one selector and for a list of them.
    """
    spec = checked.spec
    if run_dir is not None and spec.heterogeneous:
        raise param_error("run_dir", _FUNC, "None for a list of selectors (checkpointed "
                          "runs take one selector)", run_dir)
    if resume and run_dir is None:
        raise param_error("run_dir", _FUNC, "a run directory when resume=True", None)
    every = check_int(checkpoint_every, "checkpoint_every", _FUNC, min_value=1)
    assert every is not None
    if run_dir is None:
        base = _fit(checked, executor=executor, store_dir=None, resume=False,
                    every=every, progress=progress)
    else:
        with directory_lock(run_dir, what="bootstrap"):
            base = _fit(checked, executor=executor, store_dir=run_dir, resume=resume,
                        every=every, progress=progress)
    tied = equal_scores_statement(base, f"{_FUNC}: ")
    if tied is not None:  # never ranked by column order silently (issue 50)
        import warnings

        warnings.warn(tied, RuntimeWarning, stacklevel=2)
    return base


def fit_class_models(checked: CheckedRun, *, executor: Any = None,
                     progress: bool | None = None) -> dict[Any, BaseModels]:
    """The base models of each class against the rest, on the run's own resamples.

    For every class c the selector is fitted on ``y == c`` (one against the rest) on the
    same b resamples as the run's base models (the same seeds, drawn from the classes:
    common random numbers, so that the classes' panels differ by the class only), for the
    per-class panels of :func:`modelmine.run` (``per_class=True``). Not checkpointed: a
    resumed run fits them again (bit-identical).

    Returns
    -------
    dict
        Class label -> :class:`BaseModels` of that class against the rest (``classes``
        ``("rest", label)``; ``extra["one_vs_rest"]`` names the class).
    """
    data, spec = checked.data, checked.spec
    if spec.heterogeneous:
        raise param_error("per_class", _FUNC, "False for a list of selectors", True)
    b, p, m = spec.n_bootstraps, data.n_features_in, spec.n_features
    seeds, _full, _record, X_fit, _root, fingerprint = _plan(checked)
    sel = checked.selectors[0]
    K = int(data.classes.size)
    runner = Runner(executor, checked.n_jobs)
    chunks = _chunks(b, runner.workers)
    drawn: list[np.ndarray] = [np.empty(0, np.int32)] * b
    subsets = np.zeros((K, b, X_fit.shape[1]), dtype=bool)
    ranks = np.zeros((K, b, X_fit.shape[1]), dtype=np.int32)
    scores: np.ndarray | None = None
    kwargs = dict(selector=sel, method=spec.resampling,
                  fraction=float(spec.sample_fraction or 1.0), stratify=spec.stratify,
                  n_features=m, n_real=p, design=checked.design,
                  one_vs_rest=tuple(range(K)), min_classes=K,
                  max_per_class=spec.max_per_class,
                  shared=shared_route(sel, X_fit, data.y, workers=runner.workers,
                                      design=checked.design,
                                      copies=1 if not sel.prepare_uses_labels else K))
    bar = progress_bar(b, f"{sel.name}, each class against the rest", "fit", progress)
    try:
        tasks = {cid: [seeds[i] for i in chunks[cid]] for cid in range(len(chunks))}
        for cid, result in runner.run(_fit_chunk, X_fit, data.y, tasks, kwargs):
            for i, (idx, models) in zip(chunks[cid], result):
                drawn[i] = idx
                for c, model in enumerate(models):
                    subsets[c, i], ranks[c, i] = model.subset, model.ranks
                    if model.scores is not None:
                        if scores is None:
                            scores = np.zeros(subsets.shape, dtype=np.float32)
                        scores[c, i] = model.scores
            bar.update(len(chunks[cid]))
    finally:
        bar.close()
        runner.close()
    sample_indices = padded(drawn)
    labels = [c.item() if hasattr(c, "item") else c for c in data.classes]
    kept = models_spec(spec)
    out: dict[Any, BaseModels] = {}
    for c, label in enumerate(labels):
        sub, rk = subsets[c, :, :p], ranks[c, :, :p]
        sc = None if scores is None else scores[c, :, :p]
        if X_fit.shape[1] != p:  # artificial features: ranks among the real ones
            rk = (np.argsort(np.argsort(rk, axis=1, kind="stable"), axis=1, kind="stable")
                  + 1).astype(np.int32)
        out[label] = BaseModels(
            subsets=sub, ranks=rk, scores=sc, sample_indices=sample_indices,
            full_model=None, spec=kept,
            artificial_subsets=None if X_fit.shape[1] == p else subsets[c, :, p:],
            feature_names=data.feature_names, classes=["rest", label],
            n_samples=data.n_samples, data_sha256=fingerprint,
            design=design_record(checked),
            extra={"one_vs_rest": label, **modality_record(data)})
    return out


def design_record(checked: CheckedRun) -> dict[str, Any]:
    """What the data brought to the resampling (:attr:`BaseModels.design`): the number of
    groups whole groups were drawn from, and whether the sample weights drew the
    resamples or went to the selector."""
    design = checked.design
    out: dict[str, Any] = {}
    if design.grouped:
        out["groups"] = design.n_groups
    if design.sample_weight is not None:
        out["sample_weight"] = "resampling" if design.weighted_resampling else "selector"
    return out


def models_spec(spec: RunSpec) -> RunSpec:
    """The settings base models keep (:attr:`BaseModels.spec`): the run's, with those that
    only mine them (the table's stage "mining": operators, k, the signature size, the
    support) at their defaults, and no operators."""
    mining = {one.name: (() if one.name == "operators" else
                         {} if one.name == "operator_params" else one.default)
              for one in SETTINGS if one.stage == "mining"}
    if all(getattr(spec, k) == v for k, v in mining.items()):
        return spec
    return spec.replace(_FUNC, **mining)


def _plan(checked: CheckedRun) -> tuple[Any, ...]:
    """The seeds of a run's resamples and the data they draw from: ``(seeds, full_seed,
    resampling_record, X_fit, root SeedSequence, fingerprint)`` (the resampling record is
    what the bootstrap stage's manifest states)."""
    data, spec = checked.data, checked.spec
    b = spec.n_bootstraps
    method, fraction, stratify = spec.resampling, float(spec.sample_fraction or 1.0), \
        spec.stratify
    artificial = spec.artificial_features
    design = checked.design
    # a continuous or survival outcome is fingerprinted by its values (its strata follow)
    fingerprint = data_fingerprint(
        data.X, data.y if data.target is None else np.zeros(data.n_samples, np.int64),
        design, data.target)
    ss = seed_sequence(spec.random_state)
    # Children 0..b-1 seed the bootstraps; child b seeds the full-data fit. The splits of
    # complementary pairs and the artificial features have their own keys beyond those
    # (what further spawning would give), so that adding them changes no other seed.
    children = ss.spawn(b + 1)
    full_seed = children.pop()
    resampling_record: dict[str, Any] = {"method": method, "stratify": bool(stratify),
                                         "fraction": fraction}
    if design.grouped:  # only then, so that earlier records read the same
        resampling_record["groups"] = design.n_groups
    if spec.max_per_class is not None:
        resampling_record["max_per_class"] = spec.max_per_class
    if design.sample_weight is not None:
        resampling_record["sample_weight"] = ("resampling" if design.weighted_resampling
                                              else "selector")
    seeds: list[Any] = list(children)
    if method == "complementary-pairs":
        resampling_record["n_pairs"] = b // 2
        seeds = [(children[i], np.random.SeedSequence(
            ss.entropy, spawn_key=(*ss.spawn_key, b + 1, i // 2)), i % 2) for i in range(b)]
    X_fit = data.X
    if artificial is not None:
        art_seed = np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, b + 2))
        X_fit = add_artificial_features(data.X, artificial, np.random.default_rng(art_seed),
                                        design.members() if design.grouped else None)
    return seeds, full_seed, resampling_record, X_fit, ss, fingerprint


def _fit(checked: CheckedRun, *, executor: Any, store_dir: str | os.PathLike[str] | None,
         resume: bool, every: int, progress: bool | None) -> BaseModels:
    data, spec = checked.data, checked.spec
    p = data.n_features_in
    design = checked.design
    if store_dir is not None and resume and (Path(store_dir) / "manifest.json").exists():
        # The chunk layout is the run's own (a spec resolves a seed, never None).
        every = int(RunDirectory.read_manifest(store_dir)["settings"]["checkpoint_every"])
    plan = _plan(checked)
    seeds, full_seed, resampling_record, X_fit, ss, fingerprint = plan
    seed = int(ss.entropy)
    runner = Runner(executor, checked.n_jobs)
    parts: list[_Fitted] = []
    try:
        for sel in checked.selectors:
            parts.append(_fit_selector(
                sel, data.X, X_fit, data.y, seeds, full_seed, spec=spec, p=p, every=every,
                runner=runner, progress=progress, fingerprint=fingerprint,
                store_dir=store_dir, resume=resume, resampling_record=resampling_record,
                feature_names=data.feature_names, random_state=seed, design=design,
                target=None if data.target is None else standardized_target(data.target),
                covariates=checked.covariates))
    finally:
        runner.close()
    labels = [c.item() if hasattr(c, "item") else c for c in data.classes]
    # the one record of what made the models: the spec (their selector, resampling,
    # m and seed are its views), and what the data brought to the resampling
    common: dict[str, Any] = dict(feature_names=data.feature_names, spec=models_spec(spec),
                                  classes=labels, n_samples=data.n_samples,
                                  data_sha256=fingerprint, design=design_record(checked))
    if not spec.heterogeneous:
        part = parts[0]
        base = BaseModels(subsets=part.subsets, ranks=part.ranks, scores=part.scores,
                          sample_indices=part.sample_indices, full_model=part.full_model,
                          artificial_subsets=part.artificial_subsets,
                          extra=modality_record(data), **common)
        if part.store is not None:
            part.store.finish(base)
        return base
    return _pool(parts, common, modality_record(data))


def modality_record(data: Any) -> dict[str, Any]:
    """The base models' record of multi-omic data's blocks (``extra["modalities"]``:
    name and number of features per modality, in column order); empty for one block."""
    return {"modalities": [[k, v] for k, v in data.modalities]} if data.modalities else {}


class _Fitted:
    """One selector's b models over the real features (and its artificial selections)."""

    def __init__(self, selector: Selector, subsets: np.ndarray, ranks: np.ndarray,
                 scores: np.ndarray | None, sample_indices: np.ndarray,
                 full_model: FeatureModel | None, artificial_subsets: np.ndarray | None,
                 store: RunDirectory | None) -> None:
        self.selector, self.subsets, self.ranks, self.scores = selector, subsets, ranks, scores
        self.sample_indices, self.full_model = sample_indices, full_model
        self.artificial_subsets, self.store = artificial_subsets, store


def _fit_selector(sel: Selector, X: Any, X_fit: Any, y: np.ndarray, seeds: list[Any],
                  full_seed: np.random.SeedSequence, *, spec: RunSpec, p: int, every: int,
                  runner: Runner, progress: bool | None, fingerprint: str,
                  store_dir: Any, resume: bool, resampling_record: dict[str, Any],
                  feature_names: Any, random_state: int,
                  design: SampleDesign = NO_DESIGN, target: Any = None,
                  covariates: Any = None) -> _Fitted:
    b, m, p_fit = spec.n_bootstraps, spec.n_features, X_fit.shape[1]
    store = None
    done: dict[int, dict[str, np.ndarray]] = {}
    if store_dir is not None:
        settings: dict[str, Any] = {
            "selector": sel.describe(), "n_bootstraps": b, "n_features": m,
            "resampling": resampling_record, "random_state": str(random_state),
            "fit_full": bool(spec.fit_full), "checkpoint_every": every,
            "feature_names_sha256": hashlib.sha256(
                "\n".join(feature_names).encode()).hexdigest(),
        }
        if spec.artificial_features is not None:
            settings["artificial_features"] = spec.artificial_features
        if target is not None and target.dtype.names is None:
            # regression fits a standardised y (issue 40): a run checkpointed before
            # fitted y as given, and is not continued with the other scale
            settings["target_scale"] = "standardized"
        if covariates is not None:  # a resume with other covariate values is refused
            settings["covariate_values"] = covariates.checksums()
        store = RunDirectory(store_dir, settings, fingerprint)
        store.open(resume=resume)
        chunks = chunk_ids(b, every)
        # Checkpointed chunks hold the models over the columns the selector saw.
        done = store.finished_chunks([len(c) for c in chunks], p_fit, int(y.size))
    else:
        chunks = _chunks(b, runner.workers)

    subsets = np.zeros((b, p_fit), dtype=bool)
    ranks = np.zeros((b, p_fit), dtype=np.int32)
    scores: np.ndarray | None = None
    drawn: list[np.ndarray] = [np.empty(0, np.int32)] * b  # each model's rows

    def fill(chunk: np.ndarray, idx: np.ndarray, sub: np.ndarray, rk: np.ndarray,
             sc: np.ndarray | None) -> None:
        nonlocal scores
        for i, row in zip(chunk, idx):
            drawn[i] = row[row >= 0]
        subsets[chunk] = sub
        ranks[chunk] = rk
        if sc is not None:
            if scores is None:
                scores = np.zeros((b, p_fit), dtype=np.float32)
            scores[chunk] = sc

    for cid, arrays in done.items():
        fill(chunks[cid], arrays["sample_indices"],
             np.unpackbits(arrays["subsets"], axis=1, count=p_fit).astype(bool),
             arrays["ranks"], arrays.get("scores"))
    pending = [cid for cid in range(len(chunks)) if cid not in done]
    kwargs = dict(selector=sel, method=spec.resampling,
                  fraction=float(spec.sample_fraction or 1.0), stratify=spec.stratify,
                  n_features=m, n_real=p, design=design,
                  min_classes=int(y.max()) + 1 if spec.per_class else min(2, int(y.max()) + 1),
                  target=target, max_per_class=spec.max_per_class,
                  shared=shared_route(sel, X_fit, y if target is None else target,
                                      workers=runner.workers, design=design))
    bar = progress_bar(b, f"bootstrap {sel.name}", "fit", progress)
    bar.update(sum(len(chunks[c]) for c in done))
    try:
        tasks = {cid: [seeds[i] for i in chunks[cid]] for cid in pending}
        for cid, result in runner.run(_fit_chunk, X_fit, y, tasks, kwargs):
            idx = padded([r[0] for r in result])
            sub = np.vstack([r[1].subset for r in result])
            rk = np.vstack([r[1].ranks for r in result])
            has_scores = result[0][1].scores is not None
            sc = (np.vstack([r[1].scores for r in result]).astype(np.float32)
                  if has_scores else None)
            fill(chunks[cid], idx, sub, rk, sc)
            if store is not None:
                arrays = {"sample_indices": idx, "subsets": np.packbits(sub, axis=1),
                          "ranks": rk}
                if sc is not None:
                    arrays["scores"] = sc
                store.write_chunk(cid, arrays)
            bar.update(len(chunks[cid]))
    finally:
        bar.close()
    sample_indices = padded(drawn)

    full_model = None
    if spec.fit_full and not spec.heterogeneous:
        saved = store.full_model() if store is not None else None
        if saved is not None:
            full_model = FeatureModel(scores=saved.get("scores"), ranks=saved["ranks"],
                                      subset=saved["subset"])
        else:
            with threadpool_limits(limits=1):
                seed = int(np.random.default_rng(full_seed).integers(0, 2**31 - 1))
                # The full-data model takes the sample weights as every resample's
                # model does (issue 38): with weighted resampling they drew the rows,
                # and all rows are in the full data, so none is given then.
                full_weights = ({} if design.sample_weight is None
                                or design.weighted_resampling
                                else {"sample_weight": design.sample_weight})
                full_model = model_from_output(
                    sel.select(X, y if target is None else target, random_state=seed,
                               **full_weights),
                    n_features_in=p,
                    n_features=m, selector=sel.name)
            if store is not None:
                arrays = {"ranks": full_model.ranks, "subset": full_model.subset}
                if full_model.scores is not None:
                    arrays["scores"] = full_model.scores
                store.write_full_model(arrays)
    artificial_subsets = None
    if spec.artificial_features is not None:
        # The real features keep their order among themselves: ranks 1..p among the real.
        artificial_subsets = subsets[:, p:]
        subsets = np.ascontiguousarray(subsets[:, :p])
        ranks = (np.argsort(np.argsort(ranks[:, :p], axis=1, kind="stable"), axis=1,
                            kind="stable") + 1).astype(np.int32)
        if scores is not None:
            scores = np.ascontiguousarray(scores[:, :p])
    for owned in (subsets, ranks, scores, sample_indices):
        if owned is not None:  # handed over to BaseModels without a copy
            owned.flags.writeable = False
    return _Fitted(sel, subsets, ranks, scores, sample_indices, full_model,
                   artificial_subsets, store)


def _pool(parts: list[_Fitted], common: dict[str, Any],
          record: dict[str, Any] | None = None) -> BaseModels:
    """Pool the selectors' models (Salman 2022, Section 3.2.2): the same b resamples for
    every selector, since a resample depends only on (seed, i)."""
    without = [part.selector.name for part in parts if part.scores is None]
    if len(without) == len(parts):
        scores = None
    else:
        scores = np.vstack([
            part.scores if part.scores is not None
            else np.full(part.subsets.shape, np.nan, dtype=np.float32) for part in parts])
    b = parts[0].subsets.shape[0]
    names = [part.selector.name for part in parts]
    extra: dict[str, Any] = {"model_selectors": [n for n in names for _ in range(b)],
                             **(record or {})}
    if without and scores is not None:
        extra["selectors_without_scores"] = without
    artificial = (None if parts[0].artificial_subsets is None else
                  np.vstack([p.artificial_subsets for p in parts
                             if p.artificial_subsets is not None]))
    # the pooled record (every selector's description) is a view of the spec
    return BaseModels(
        subsets=np.vstack([part.subsets for part in parts]),
        ranks=np.vstack([part.ranks for part in parts]), scores=scores,
        sample_indices=np.vstack([part.sample_indices for part in parts]),
        full_model=None, artificial_subsets=artificial, extra=extra, **common)


def resume(
    run_dir: str | os.PathLike[str], X: Any, y: Any, *, selector: Any = None,
    feature_names: Any = None, n_jobs: int | None = None, executor: Any = None,
    progress: bool | None = None, groups: Any = None, sample_weight: Any = None,
) -> BaseModels:
    """Continue a bootstrap run recorded in ``run_dir`` (for example after a crash).

    The bootstrap stage's own resume; :func:`modelmine.resume` calls it for a directory
    written by :func:`bootstrap` with ``run_dir`` (and resumes whole runs too). The
    settings are read from the run's manifest; the data must be the same as the run's
    (checked by fingerprint). The result is bit-identical to an uninterrupted run.

    Parameters
    ----------
    run_dir : path-like
        A directory written by :func:`bootstrap` with ``run_dir``.
    X, y : the run's data.
    selector : Selector, estimator or callable, optional
        Needed only when the run used a custom selector (built-in ones are rebuilt from
        the manifest); it must describe itself exactly as the recorded one.
    feature_names, n_jobs, executor, progress, groups, sample_weight : as in
        :func:`bootstrap` (the groups and weights of the run, when it had them).
    """
    settings = RunDirectory.read_manifest(run_dir)["settings"]
    recorded = settings["selector"]
    from ..selectors import default_registry

    scale = "none"
    if selector is None:
        if recorded["name"] not in default_registry():
            raise param_error("selector", "resume", f"the custom selector the run used "
                              f"({recorded['name']!r}, {recorded['params']})", None)
        selector, params = recorded["name"], dict(recorded["params"])
        scale = recorded.get("scale") or "none"
    else:
        params = {}
    res = settings["resampling"]
    spec = RunSpec(selector=selector, selector_params=params,
                   n_bootstraps=settings["n_bootstraps"], n_features=settings["n_features"],
                   resampling=res["method"], sample_fraction=res["fraction"],
                   stratify=res["stratify"], scale=scale,
                   random_state=int(settings["random_state"]), fit_full=settings["fit_full"],
                   artificial_features=settings.get("artificial_features"),
                   weighted_resampling=res.get("sample_weight") == "resampling",
                   outcome=str(recorded.get("outcome", DEFAULT_OUTCOME)),
                   max_per_class=res.get("max_per_class"), operators=(), func="resume")
    checked = check_run_data(X, y, spec, feature_names=feature_names, n_jobs=n_jobs,
                             func="resume", groups=groups, sample_weight=sample_weight)
    return fit_base_models(checked, executor=executor, run_dir=run_dir, resume=True,
                           checkpoint_every=settings["checkpoint_every"], progress=progress)


def padded(rows: list[np.ndarray]) -> np.ndarray:
    """The resamples' row indices as one int32 matrix, one row per model: equal lengths
    stack as they are; resamples of whole groups, whose sizes vary, are padded on the
    right with -1 (:meth:`BaseModels.resample` strips it)."""
    width = max((r.size for r in rows), default=0)
    out = np.full((len(rows), width), -1, dtype=np.int32)
    for i, r in enumerate(rows):
        out[i, :r.size] = r
    return out


def _chunks(b: int, workers: int) -> list[np.ndarray]:
    """Split range(b) into contiguous chunks: about four per worker, for load balance, and
    at most 50 bootstraps each, so progress shows and intermediate results stay small.
    (How the work is chunked never changes the result.)"""
    return chunk_ids(b, max(1, min(50, -(-b // (4 * workers)))))


def chunk_ids(b: int, size: int) -> list[np.ndarray]:
    """The ids 0..b-1 in contiguous chunks of ``size`` (the last one shorter): O(b) memory
    whatever b. (Slicing a new ``np.arange(b)`` per chunk kept b/size copies of it alive,
    b^2 / size ids in all: 20 GB at b = 200,000, issue 40.)"""
    ids = np.arange(b)
    return [ids[i:i + size] for i in range(0, b, size)]
