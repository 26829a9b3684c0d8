"""What a run's data must hold before its first fit, checked once at the door.

:class:`modelmine.RunSpec` checks the settings without the data; :func:`check_run_data`
checks them against the data (:func:`modelmine._data.check_dataset`): m against p (the one
capping policy, :func:`modelmine.spec.capped`), classes per resample, multiclass support,
constant data, and memory for the b models. :func:`modelmine.run` calls it before it writes
its first checkpoint, so that bad input fails at once and leaves nothing behind.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._data import Dataset, check_container, check_dataset
from ..constants import MIN_SAMPLES_PER_CLASS
from ..outcomes import OutcomeKind
from ..spec import RunSpec, capped
from ..validation import check_int, param_error
from ._design import NO_DESIGN, SampleDesign, check_design, refuse_unweighted

__all__ = ["CheckedRun", "available_memory", "check_run_data", "distinct_bound",
           "estimate_memory", "operators_nbytes"]


@dataclass(frozen=True)
class CheckedRun:
    """A run specification checked against its data: what the bootstrap stage fits.

    Attributes
    ----------
    data : Dataset
        X (float64 ndarray or CSR), y as class codes, the classes and feature names.
    spec : RunSpec
        The specification, with m and the signature size capped at p.
    n_jobs : int or None
        Workers of the bootstrap (checked).
    design : SampleDesign
        The groups and sample weights of the samples (none by default).
    """

    data: Dataset
    spec: RunSpec
    n_jobs: int | None = None
    design: SampleDesign = NO_DESIGN
    #: The run's clinical covariates (:class:`modelmine.outcomes.Covariates`), or None.
    covariates: Any = None

    @property
    def selectors(self) -> tuple[Any, ...]:
        if self.covariates is None:
            return self.spec.selectors
        from ..selectors._covariates import adjusted

        return tuple(adjusted(s, self.covariates, func="run") for s in self.spec.selectors)


def check_run_data(X: Any, y: Any, spec: RunSpec, *, feature_names: Any = None,
                   n_jobs: int | None = None, func: str = "bootstrap",
                   groups: Any = None, sample_weight: Any = None,
                   sparse_dtype: Any = np.float64, one_vs_rest: bool = False,
                   modalities: Any = ()) -> CheckedRun:
    """Check a specification against its data, before the first fit.

    Parameters
    ----------
    X, y : the data and class labels (as :func:`modelmine.bootstrap` takes them).
    spec : RunSpec
    groups, sample_weight : array-like of shape (n_samples,), optional
        The sampling design (:mod:`._design`): whole groups are resampled; the weights go
        to the selectors (which must take them) or, with ``spec.weighted_resampling``,
        draw the resamples.
    feature_names : sequence of str, optional
    n_jobs : int or None
    func : str
        The public function the user called, named in the messages.
    sparse_dtype : numpy dtype, default=float64
        The dtype a sparse X is kept in (:func:`modelmine._data.check_dataset`).
    one_vs_rest : bool, default=False
        Only the models of each class against the rest are fitted
        (:func:`fit_class_models`, for marker_panels): binary selectors are accepted.
    modalities : sequence of (str, int), optional
        The modality blocks of multi-omic data (a MuData brings its own), kept by the
        base models (:attr:`BaseModels.modalities`).

    Returns
    -------
    CheckedRun

    Raises
    ------
    ValueError, TypeError
        The standard message (``The 'x' parameter of run must be ...``).
    """
    from ..selectors import RecordedSelector
    from ..selectors._recorded import refit_refusal

    recorded = [s.name for s in spec.selectors if isinstance(s, RecordedSelector)]
    if recorded:  # a stored run's custom selector: nothing can be fitted with it
        raise param_error("selector", func, "a selector that can be fitted",
                          f"{recorded[0]!r}, known only by its record", show=False,
                          hint=refit_refusal(recorded[0]))
    check_container(X, "X", func)  # before any work, y's reading included
    check_container(y, "y", func, target=True)
    kind = spec.outcome_kind
    if kind.classes:
        data = check_dataset(X, y, func=func, feature_names=feature_names,
                             sparse_dtype=sparse_dtype, modalities=modalities)
    else:
        outcome = kind.check(y, func=func)
        data = check_dataset(X, outcome.strata, func=func, feature_names=feature_names,
                             modalities=modalities)
        data = dataclasses.replace(data, classes=outcome.strata_labels,
                                   target=outcome.values)
    p, n = data.n_features_in, data.n_samples
    spec = spec.for_data(p, func)  # the defaults the data decide (m: a third of few)
    why = f"the {p} features of X"
    changes: dict[str, Any] = {}
    if spec.n_features is not None and spec.n_features > p:
        changes["n_features"] = capped(spec.n_features, p, name="n_features", func=func,
                                       why=why)
    if spec.signature_size is not None and spec.signature_size > p:
        changes["signature_size"] = capped(spec.signature_size, p, name="signature_size",
                                           func=func, why=why)
    if changes:
        spec = spec.replace(func=func, **changes)
    method, fraction = spec.resampling, float(spec.sample_fraction or 1.0)
    if method == "complementary-pairs" and n < 4:
        raise param_error("X", func, "at least 4 samples for complementary pairs",
                          f"{n} samples", show=False)
    if spec.artificial_features == "knockoff":
        if sp.issparse(data.X):
            raise param_error("artificial_features", func, "'permutation' for sparse data "
                              "(Gaussian knockoffs need a dense covariance)", "knockoff")
        if importlib.util.find_spec("knockpy") is None:
            raise param_error("artificial_features", func, "'permutation' unless the knockpy "
                              "package is installed (pip install knockpy)", "knockoff",
                              exc=ImportError)
    if method == "subsample" and round(fraction * n) >= n:
        raise param_error("sample_fraction", func, "below 1 for subsampling without "
                          "replacement (a full subsample is the data itself)", fraction)
    counts = np.bincount(data.y)
    if spec.stratify and counts.min() < 2:
        small = [_label(data.classes[c]) for c in np.flatnonzero(counts < 2)]
        raise param_error("stratify", func, "False when a class has fewer than 2 "
                          "members (stratified resampling needs 2 or more per class)",
                          f"True with class(es) {small} of size 1", show=False)
    if spec.per_class:
        if data.classes.size < 3:
            raise param_error("per_class", func, "False with two classes (the binary run "
                              "is already one class against the other: its markers() give "
                              "both directions)", True)
        if spec.heterogeneous:
            raise param_error("per_class", func, "False for a list of selectors (per-class "
                              "panels take one selector)", True)
    for sel in spec.selectors:
        if data.classes.size > 2 and not sel.supports_multiclass and not one_vs_rest:
            raise param_error("y", func, f"binary for selector {sel.name!r}",
                              f"{data.classes.size} classes", show=False)
    n_jobs_eff = check_int(n_jobs, "n_jobs", func, allow_none=True)
    if n_jobs_eff == 0:
        raise param_error("n_jobs", func, "a non-zero integer or None", n_jobs)
    if counts.min() < MIN_SAMPLES_PER_CLASS and not kind.classes:
        shown = ", ".join(f"{_label(c)}: {int(k)}" for c, k in zip(data.classes, counts))
        raise param_error("y", func, f"a {spec.outcome} target whose values are not nearly "
                          "all equal (each stratum the resampling keeps, the quantile bins "
                          "of y or the events and censored times, needs 2 or more samples)",
                          f"strata of sizes {shown}", show=False)
    if counts.min() < MIN_SAMPLES_PER_CLASS:
        small = [_label(data.classes[c])
                 for c in np.flatnonzero(counts < MIN_SAMPLES_PER_CLASS)]
        raise param_error("y", func, f"labels with at least {MIN_SAMPLES_PER_CLASS} samples "
                          "per class (a resample must hold two classes, and ReliefF a "
                          "nearest hit)", f"class(es) {small} with fewer, among "
                          f"{n} samples", show=False)
    if not _has_varying_feature(data.X):
        raise param_error("X", func, "data with at least one non-constant feature (no "
                          "selector can rank features that never vary)",
                          f"{p} constant feature(s)", show=False)
    design = check_design(groups, sample_weight, n, func=func,
                          weighted_resampling=spec.weighted_resampling)
    if design.grouped and data.target is not None:
        data = _group_strata(data, design, kind)
    if not design.empty:
        _check_design_fits(design, data.y, spec, func, data.classes)
    _check_resamples_vary(design, data.y, spec, func)
    b, n_sel = spec.n_bootstraps, len(spec.selectors)
    drawn = n // 2 if method == "complementary-pairs" else max(2, round(fraction * n))
    if design.grouped:  # resamples of whole groups vary in size; bound them by n
        drawn = max(drawn, n)
    # With artificial features the selector sees 2p columns (and the models hold them
    # until the artificial part is split off).
    width = p if spec.artificial_features is None else 2 * p
    need = estimate_memory(n_sel * b, width, drawn)
    available = available_memory()
    if available is not None and need > available:
        most = max(2, int(b * available / need))
        models = f"{n_sel} selectors x {b}" if n_sel > 1 else f"{b}"
        raise param_error("n_bootstraps", func, f"at most about {most} here: {models} base "
                          f"models of {p} features need about {_gib(need)} of memory, and "
                          f"{_gib(available)} are available", b)
    if available is not None:
        _check_operators_memory(spec, n_sel, p, drawn, available, func)
    if n_jobs_eff is not None and n_jobs_eff > (os.cpu_count() or 1):
        warnings.warn(f"n_jobs={n_jobs_eff} is above the {os.cpu_count()} cores of this "
                      "machine: the extra workers only compete for them (results do not "
                      "depend on n_jobs).", UserWarning, stacklevel=3)
    return CheckedRun(data=data, spec=spec, n_jobs=n_jobs_eff, design=design)


def _check_design_fits(design: SampleDesign, y: np.ndarray, spec: RunSpec,
                       func: str, classes: Any = None) -> None:
    """What the groups and weights must satisfy for the run's scheme and selectors."""
    method, fraction = spec.resampling, float(spec.sample_fraction or 1.0)
    if design.grouped:
        G = design.n_groups
        classes = design.group_classes(y)
        if spec.stratify and classes is None:
            raise param_error("stratify", func, "False when a group holds samples of "
                              "several classes (stratified resampling of groups keeps the "
                              "proportions of the groups' classes, so each group needs one "
                              "class)", True)
        if spec.artificial_features == "knockoff":
            raise param_error("artificial_features", func, "'permutation' with groups "
                              "(Gaussian model-X knockoffs assume independent rows; "
                              "permutation decoys are drawn group by group)", "knockoff")
        if method == "subsample" and round(fraction * G) >= G:
            raise param_error("sample_fraction", func, f"below {(G - 0.5) / G:.3g} for "
                              f"subsampling {G} groups without replacement (round(fraction "
                              "x G) must leave a group out)", fraction)
        if method == "complementary-pairs" and G < 4:
            raise param_error("groups", func, "at least 4 groups for complementary pairs "
                              "(two halves of floor(G/2) groups)", f"{G} groups",
                              show=False)
        if spec.stratify:
            assert classes is not None
            per = np.bincount(classes, minlength=int(y.max()) + 1)
            need = 2 if method == "complementary-pairs" else 1
            if (per < need).any() or (per == 0).any():
                raise param_error("groups", func, f"at least {max(need, 1)} group(s) of each "
                                  "class for stratified resampling of groups",
                                  f"classes with {sorted(set(per.tolist()))} groups",
                                  show=False)
    if design.sample_weight is None:
        return
    w = design.sample_weight
    if design.weighted_resampling:
        if method == "complementary-pairs":
            raise param_error("weighted_resampling", func, "False for complementary pairs "
                              "(two halves of the samples draw nothing to weight)", True)
        if spec.stratify:
            units = design.group_classes(y) if design.grouped else y
            positive = design.group_weights() if design.grouped else w
            assert units is not None and positive is not None
            empty = [int(c) for c in np.unique(units) if not (positive[units == c] > 0).any()]
            if empty:
                raise param_error("sample_weight", func, "a positive weight in every class "
                                  "for stratified weighted resampling",
                                  f"all weights zero in class {_names(empty, classes)}",
                                  show=False)
        if not spec.stratify:
            _check_weighted_draws(design, y, spec, func, classes)
        if method == "subsample":
            units_w = design.group_weights() if design.grouped else w
            assert units_w is not None
            size = round(fraction * units_w.size)
            if int((units_w > 0).sum()) < size:
                raise param_error("sample_weight", func, f"at least {size} positive weights "
                                  "to subsample without replacement",
                                  f"{int((units_w > 0).sum())}", show=False)
        return
    refuse_unweighted({sel.name: sel for sel in spec.selectors}, func)
    positive = np.unique(y[w > 0])
    if positive.size < 2 or int((w > 0).sum()) <= positive.size:
        raise param_error("sample_weight", func, "positive weights on more samples than "
                          "classes, in at least 2 classes (the weighted fit compares the "
                          "classes' samples of positive weight)",
                          f"{int((w > 0).sum())} positive weight(s) in "
                          f"{positive.size} class(es)", show=False)


#: Below this chance that a weighted resample holds the classes it needs, the run is
#: refused at the door (the redraws would be nearly endless: 1 / chance on average).
_MIN_DRAW_CHANCE = 0.01


def _check_weighted_draws(design: SampleDesign, y: np.ndarray, spec: RunSpec,
                          func: str, classes: Any = None) -> None:
    """Refuse weighted resampling (not stratified) whose draws can hardly ever hold the
    classes a resample needs: two, or every class for ``per_class``. A unit (row, or
    group) of class c is drawn with probability ``P_c``, its class's share of the weight;
    with ``s`` draws, a resample misses class c with probability ``(1 - P_c)^s`` (with
    replacement; without it, at most that). The chance of a usable resample is bounded
    below by ``1 - sum_c (1 - P_c)^s`` for ``per_class``, and is ``1 - sum_c P_c^s`` for
    two classes (with replacement)."""
    if design.grouped:
        units = design.group_classes(y)
        weights = design.group_weights()
        if units is None or weights is None:  # groups of mixed classes: checked per draw
            return
    else:
        units, weights = y, design.sample_weight
    assert weights is not None
    K = int(y.max()) + 1
    share = np.bincount(units, weights=weights, minlength=K) / weights.sum()
    n_units = units.size
    s = max(1, round(float(spec.sample_fraction or 1.0) * n_units))
    if spec.per_class:
        empty = np.flatnonzero(share == 0)
        if empty.size:
            raise param_error("sample_weight", func, "a positive weight in every class "
                              "with per_class=True and weighted_resampling=True (each "
                              "resample must hold every class)",
                              f"all weights zero in class {_names(empty, classes)}",
                              show=False)
        chance = 1.0 - float(np.sum((1.0 - share) ** s))
        need = "every class"
    else:
        if int((share > 0).sum()) < 2:
            raise param_error("sample_weight", func, "positive weights in at least 2 "
                              "classes with weighted_resampling=True (a resample must hold "
                              "two classes), or stratify=True",
                              "all positive weights in class "
                              f"{_names([int(np.argmax(share))], classes)}", show=False)
        chance = 1.0 - float(np.sum(share ** s))
        need = "two classes"
    if chance < _MIN_DRAW_CHANCE:
        raise param_error("sample_weight", func, "weights that let a weighted resample "
                          f"hold {need} (stratify=True draws each class among its own "
                          "samples)", "class weight shares "
                          + ", ".join(f"{_names([c], classes)} {x:.3g}"
                                      for c, x in enumerate(share))
                          + f": a resample of {s} "
                          f"draws holds {need} with probability {max(chance, 0.0):.2g}",
                          show=False)


def _check_resamples_vary(design: SampleDesign, y: np.ndarray, spec: RunSpec,
                          func: str) -> None:
    """Refuse a resampling whose every draw is the same (the whole data): stability
    would then be 1 whatever the data. Each stratum (a class, or a class's groups, with
    ``stratify``; all units without) gives ``max(1, round(fraction x size))`` units: the
    draw is fixed when a stratum of one unit is bootstrapped, or a stratum is subsampled
    whole."""
    method = spec.resampling
    K = int(np.unique(y).size)
    if design.grouped:
        group_classes = design.group_classes(y)
        if group_classes is not None and design.n_groups == K:
            raise param_error("groups", func, "more groups than classes (each class is a "
                              "single group here: every resample that holds two classes "
                              "is the whole data, and stability would be 1 whatever the "
                              "data)", f"{design.n_groups} groups, one per class",
                              show=False)
    if method == "complementary-pairs":
        return
    fraction = float(spec.sample_fraction or 1.0)
    need = K if spec.per_class else min(2, K)
    single_class_units = not design.grouped or design.group_classes(y) is not None
    if not spec.stratify and single_class_units:  # a unit holds one class
        units_total = design.n_groups if design.grouped else y.size
        drawn = max(1 if design.grouped else 2, round(fraction * units_total))
        if drawn < need:
            raise param_error("sample_fraction", func, f"at least {need / units_total:.3g} "
                              f"so that a resample of {units_total} "
                              f"{'groups' if design.grouped else 'samples'} can hold "
                              f"{need} classes (or stratify=True)",
                              f"{fraction:g}, which draws {drawn}", show=False)
    if design.grouped:
        classes = design.group_classes(y) if spec.stratify else None
        units = "groups"
        sizes = (np.bincount(classes) if classes is not None
                 else np.array([design.n_groups]))
    else:
        units = "samples"
        sizes = np.bincount(y) if spec.stratify else np.array([y.size])
    sizes = sizes[sizes > 0]
    draws = np.maximum(1, np.round(fraction * sizes))
    fixed = (sizes == 1) if method == "bootstrap" else (draws >= sizes)
    if not fixed.all():
        return
    if method == "bootstrap":
        raise param_error("stratify", func, f"False when every class has a single "
                          f"{units[:-1]} (each stratified resample then draws that "
                          f"{units[:-1]} again: every resample is the whole data, and "
                          "stability would be 1 whatever the data)", True)
    smallest = int(sizes.min())
    what = f"each class's {units}" if spec.stratify else units
    raise param_error("sample_fraction", func, f"below {(smallest - 0.5) / smallest:.3g} "
                      f"for subsampling {what} (round(fraction x {smallest}) must leave one "
                      "out; with "
                      "stratify=True each class is subsampled on its own): every resample "
                      "would be the whole data, and stability 1 whatever the data",
                      fraction)


def _group_strata(data: Dataset, design: SampleDesign, kind: OutcomeKind) -> Dataset:
    """Strata of whole groups for an outcome without classes, given to each group's
    samples (the kind's ``group_strata``: the quantile bins of the groups' mean y, or
    whether a group had an event, the halves of the groups' median times when nearly every
    group had one); so stratified resampling of groups keeps the proportions of the
    groups' outcomes."""
    found = (None if kind.group_strata is None
             else kind.group_strata(data.target, design.members()))
    if found is None:
        return data
    codes, labels = found
    assert design.groups is not None
    return dataclasses.replace(data, y=np.asarray(codes, np.intp)[design.groups],
                               classes=labels)


def distinct_bound(n_models: int, n_features_in: int, n_features: int | None) -> int:
    """The most distinct subsets b base models can hold: b, or fewer when p is small
    (subsets of at most m of the p features: sum_{j <= m} C(p, j); a 40 x 20 table at
    m = 7 has 137,979 of them)."""
    m = n_features_in if n_features is None else min(n_features, n_features_in)
    possible, term = 0, 1
    for j in range(m + 1):
        possible += term
        if possible >= n_models:
            return n_models
        term = term * (n_features_in - j) // (j + 1)
    return possible


def operators_nbytes(spec: RunSpec, n_models: int, n_features_in: int
                     ) -> dict[str, tuple[int, int]]:
    """Each operator of ``spec``'s estimate of its peak memory on ``n_models`` base models
    of ``n_features_in`` features (:attr:`modelmine.operators.Operator.nbytes`, read
    through the default operator registry, which this stage does not import), at the most
    distinct models they can hold (:func:`distinct_bound`): ``{name: (bytes, distinct)}``.
    Operators that give no estimate (plugins) are left out."""
    if not spec.operators:
        return {}
    from .._registry import default_of

    registry = default_of("operator")
    d = distinct_bound(n_models, n_features_in, spec.n_features)
    k = int(spec.n_signatures)
    out = {}
    for name in spec.operators:
        estimate = getattr(registry.entry(name), "nbytes", None)
        if estimate is not None:
            params = dict(spec.operator_params.get(name, {}))
            out[name] = (int(estimate(n_models, d, n_features_in, k, params)), d)
    return out


def _check_operators_memory(spec: RunSpec, n_sel: int, p: int, drawn: int, available: int,
                            func: str) -> None:
    """Refuse, before the first fit, a run whose base models and heaviest operator would
    not fit in the memory available, with the figures and the b that fits (issue 50:
    allMed's b x b distances passed 3 GiB at b = 40,000 after every fit was spent)."""
    b = spec.n_bootstraps

    def need(b_: int) -> tuple[int, str, int, int]:
        ops = operators_nbytes(spec, n_sel * b_, p)
        name, (nbytes, d) = max(ops.items(), key=lambda kv: kv[1][0],
                                default=("", (0, 0)))
        return estimate_memory(n_sel * b_, p, drawn) + nbytes, name, nbytes, d

    total, name, nbytes, d = need(b)
    if total <= available or not name:
        return
    low, high = 2, b  # the largest b that fits (the estimates grow with b)
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if need(mid)[0] <= available else (low, mid - 1)
    raise param_error(
        "n_bootstraps", func, f"at most about {low} here: the operator {name!r} on {n_sel * b:,} "
        f"base models of {p} features (up to {d:,} distinct) needs about {_gib(nbytes)} of "
        f"memory, {_gib(total)} with the models, and {_gib(available)} are available", b,
        hint=f"Leave {name!r} out of the operators, or give fewer bootstraps.")


def estimate_memory(n_bootstraps: int, n_features_in: int, n_drawn: int) -> int:
    """Bytes a run of b base models holds at its peak, estimated before it starts.

    Per model: p booleans (subset), p int32 ranks, p float32 scores and ``n_drawn`` int32
    sample indices; twice that, for the copies made while chunks are stacked, saved and
    aggregated.
    """
    return 2 * n_bootstraps * (9 * n_features_in + 4 * n_drawn)


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (Linux ``MemAvailable``), or None
    where it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def _gib(n: float) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"


def _names(codes: Any, classes: Any) -> str:
    """Classes by their names (the labels as given), not their codes: ``'tumour'``,
    ``'a', 'b'`` (issue 50: messages said "class code 0")."""
    codes = [int(c) for c in np.asarray(codes).ravel()]
    if classes is None:
        return ", ".join(str(c) for c in codes)
    return ", ".join(repr(_label(classes[c])) for c in codes)


def _label(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def _has_varying_feature(X: Any) -> bool:
    if sp.issparse(X):
        X = sp.csc_matrix(X)
        n = X.shape[0]
        nnz = np.diff(X.indptr)
        full = nnz == n
        if (~full).any():  # a column with zeros varies iff it has any non-zero value
            sparse_cols = ~full
            with np.errstate(invalid="ignore"):
                if (sp.csc_matrix(X[:, sparse_cols]).max(axis=0).toarray().ravel() != 0).any():
                    return True
                if (sp.csc_matrix(X[:, sparse_cols]).min(axis=0).toarray().ravel() != 0).any():
                    return True
        if full.any():
            dense = X[:, full].toarray()
            return bool((dense != dense[0]).any())
        return False
    return bool((X[0] != X).any())
