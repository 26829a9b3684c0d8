"""bootstrap(): run one selector on b resamples of the data, in parallel, reproducibly.

Woznica, Nguyen and Kalousis (KDD 2012, section 3) draw b = 150 bootstrap samples and run
the selector on each; Saeys, Abeel and Van de Peer (PKDD 2008) and Pes (2019) use bootstrap
bags and subsamples without replacement. Both schemes are here, optionally stratified.

Reproducibility: the seed of bootstrap i is the i-th child of
``numpy.random.SeedSequence(random_state).spawn(b)``; it draws the resample and then the
selector's own seed. Base model i therefore depends only on (random_state, i), never on how
the work is split between workers: results are bit-identical for any ``n_jobs`` and joblib
backend. Inside a worker, BLAS and OpenMP pools are limited to one thread (with
``threadpoolctl``), which avoids oversubscription and makes floating-point reductions
independent of the number of threads.
"""

from __future__ import annotations

import hashlib
import importlib.util
import numbers
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from .._data import Dataset, check_dataset
from .._files import directory_lock
from .._progress import progress_bar
from ..constants import MIN_SAMPLES_PER_CLASS
from ..exceptions import DataError
from ..selectors import FeatureModel, Selector, get_selector, model_from_output
from ..validation import check_choice, check_int, check_real, param_error
from ._base_models import BaseModels, data_fingerprint
from ._executors import Runner
from ._rundir import RunDirectory

__all__ = ["ARTIFICIAL_FEATURES", "RESAMPLING_METHODS", "add_artificial_features",
           "available_memory", "bootstrap", "check_bootstrap_arguments",
           "complementary_pair", "estimate_memory", "resample_indices", "resume",
           "seed_sequence"]

#: The resampling schemes of :func:`bootstrap`.
RESAMPLING_METHODS = ("bootstrap", "subsample", "complementary-pairs")

#: The kinds of artificial features :func:`bootstrap` can append.
ARTIFICIAL_FEATURES = ("permutation", "knockoff")

_FUNC = "bootstrap"


def seed_sequence(random_state: Any, func: str = _FUNC) -> np.random.SeedSequence:
    """A SeedSequence from ``random_state`` (None, a non-negative int, or a SeedSequence).

    None draws fresh entropy; its value is recorded so the run can be reproduced.
    """
    if random_state is None:
        return np.random.SeedSequence()
    if isinstance(random_state, np.random.SeedSequence):
        return random_state
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise param_error("random_state", func, "None or a non-negative integer",
                              random_state)
        return np.random.SeedSequence(int(random_state))
    raise param_error("random_state", func, "None or a non-negative integer", random_state,
                      exc=TypeError)


def resample_indices(
    y: np.ndarray, rng: np.random.Generator, *, method: str, fraction: float,
    stratify: bool,
) -> np.ndarray:
    """Row indices of one resample, sorted ascending.

    ``method="bootstrap"`` draws round(fraction * n) rows with replacement (n by default);
    ``"subsample"`` draws round(fraction * n) rows without replacement. With ``stratify``,
    each class contributes round(fraction * n_c) rows drawn among its own members.
    A resample holding a single class is drawn again from the same generator, so it stays
    deterministic.
    """
    replace = method == "bootstrap"
    n = y.size
    while True:
        if stratify:
            parts = []
            for c in np.unique(y):
                members = np.flatnonzero(y == c)
                size = max(1, round(fraction * members.size))
                parts.append(rng.choice(members, size=size, replace=replace))
            idx = np.concatenate(parts)
        else:
            size = max(2, round(fraction * n))
            idx = rng.choice(n, size=size, replace=replace)
        idx = np.sort(idx)
        if np.unique(y[idx]).size >= 2:
            return idx


def complementary_pair(
    y: np.ndarray, rng: np.random.Generator, *, stratify: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Two disjoint halves of the rows, each of size floor(n/2), sorted ascending.

    Shah and Samworth (2013, section 2.1): complementary pairs subsampling splits the n
    samples at random into two disjoint subsets of size floor(n/2) (one sample is left out
    when n is odd). With ``stratify`` each class is split in two halves of floor(n_c/2).
    A split leaving a single class in a half is drawn again from the same generator.
    """
    while True:
        if stratify:
            first, second = [], []
            for c in np.unique(y):
                members = rng.permutation(np.flatnonzero(y == c))
                half = members.size // 2
                first.append(members[:half])
                second.append(members[half:2 * half])
            a, b = np.concatenate(first), np.concatenate(second)
        else:
            order = rng.permutation(y.size)
            half = y.size // 2
            a, b = order[:half], order[half:2 * half]
        a, b = np.sort(a), np.sort(b)
        if np.unique(y[a]).size >= 2 and np.unique(y[b]).size >= 2:
            return a, b


def add_artificial_features(X: Any, kind: str, rng: np.random.Generator) -> Any:
    """``[X, A]``: X with p artificial features appended, one per real feature.

    - ``"permutation"``: column j of A is column j of X with its rows permuted, each column
      independently (Stabl's "random permutation" decoys, Hedou et al. 2024, Methods;
      Boruta's shadow features, Kursa and Rudnicki 2010): same marginal distribution, no
      association with y or with the other features.
    - ``"knockoff"``: Gaussian model-X knockoffs (Candes et al. 2018) with the
      equicorrelated construction of ``knockpy`` (as Stabl does): same covariance among
      themselves and with X as X has, independent of y given X. Dense data only.

    Sparse X stays sparse (permutations move the stored rows).
    """
    n, p = X.shape
    if kind == "permutation":
        perms = rng.permuted(np.tile(np.arange(n), (p, 1)), axis=1)
        if sp.issparse(X):
            Xc = sp.csc_matrix(X, copy=True)
            inverse = np.argsort(perms, axis=1)
            cols = np.repeat(np.arange(p), np.diff(Xc.indptr))
            Xc.indices = inverse[cols, Xc.indices].astype(Xc.indices.dtype)
            Xc.has_sorted_indices = False
            Xc.sort_indices()
            return sp.hstack([sp.csr_matrix(X), Xc.tocsr()], format="csr")
        A = np.take_along_axis(np.asarray(X), perms.T, axis=0)
        return np.hstack([X, A])
    return np.hstack([X, _knockoffs(X, rng)])


def _knockoffs(X: Any, rng: np.random.Generator) -> np.ndarray:
    if sp.issparse(X):
        raise param_error("artificial_features", _FUNC, "'permutation' for sparse data "
                          "(Gaussian knockoffs need a dense covariance)", "knockoff")
    try:
        from knockpy.knockoffs import GaussianSampler
    except ImportError:
        raise param_error("artificial_features", _FUNC, "'permutation' unless the knockpy "
                          "package is installed (pip install knockpy)", "knockoff",
                          exc=ImportError) from None
    # knockpy draws from numpy's global generator: seed it from ours, then restore it.
    state = np.random.get_state()  # noqa: NPY002
    np.random.seed(int(rng.integers(0, 2**32 - 1)))  # noqa: NPY002
    try:
        with threadpool_limits(limits=1):
            sampler = GaussianSampler(np.asarray(X, dtype=np.float64),
                                      method="equicorrelated")
            return np.asarray(sampler.sample_knockoffs(), dtype=np.float64)
    finally:
        np.random.set_state(state)  # noqa: NPY002


def _fit_chunk(
    X: Any, y: np.ndarray, seeds: list[Any], *, selector: Selector,
    method: str, fraction: float, stratify: bool, n_features: int | None,
    n_real: int | None = None,
) -> list[tuple[np.ndarray, Any]]:
    """Fit the selector on the resamples of a chunk of bootstraps, single-threaded.

    Each element of ``seeds`` is a bootstrap's SeedSequence or, for complementary pairs,
    ``(seed, pair_seed, half)``: the pair's seed draws the split, the model's own seed
    the selector's seed, so both halves of a pair agree wherever they are computed.
    ``X`` is the data the selector sees: with artificial features, the augmented
    ``[X, A]`` (``n_real`` real columns first), for ``prepare`` and ``select_rows`` alike.
    """
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
            prepared = selector.prepare(X, y)
        except Exception as exc:
            if not augmented:
                raise
            raise failed(exc) from exc
        for entry in seeds:
            if method == "complementary-pairs":
                seed, pair_seed, half = entry
                halves = complementary_pair(y, np.random.default_rng(pair_seed),
                                            stratify=stratify)
                idx = halves[half]
                rng = np.random.default_rng(seed)
            else:
                rng = np.random.default_rng(entry)
                idx = resample_indices(y, rng, method=method, fraction=fraction,
                                       stratify=stratify)
            selector_seed = int(rng.integers(0, 2**31 - 1))
            try:
                output = selector.select_rows(prepared, X, y, idx, random_state=selector_seed)
            except Exception as exc:
                if not augmented:
                    raise
                raise failed(exc) from exc
            model = model_from_output(output, n_features_in=X.shape[1], n_features=n_features,
                                      selector=selector.name)
            out.append((idx, model))
    return out


@dataclass(frozen=True)
class BootstrapArguments:
    """The arguments of :func:`bootstrap`, checked (see :func:`check_bootstrap_arguments`)."""

    data: Dataset
    n_bootstraps: int
    selector: Selector
    n_features: int | None
    resampling: str
    sample_fraction: float
    stratify: bool
    n_jobs: int | None
    artificial_features: str | None = None


def check_bootstrap_arguments(
    X: Any, y: Any, selector: Any = "svm-rfe", *, n_bootstraps: int = 150,
    n_features: int | None = 20, resampling: str = "bootstrap",
    sample_fraction: float | None = None, stratify: bool = False,
    selector_params: dict[str, Any] | None = None, feature_names: Any = None,
    n_jobs: int | None = None, artificial_features: str | None = None, func: str = _FUNC,
) -> BootstrapArguments:
    """Check everything :func:`bootstrap` can check before its first fit.

    The parameters and the data (:func:`modelmine._data.check_dataset`), and whether the
    data can give base models at all: at least
    :data:`~modelmine.constants.MIN_SAMPLES_PER_CLASS` samples per class, at least one
    feature that is not constant, and memory for the b models
    (:func:`estimate_memory`). :func:`modelmine.run` calls it before it writes its first
    checkpoint, so that bad input fails at once and leaves nothing behind.

    Raises
    ------
    ValueError, TypeError
        The standard message (``The 'x' parameter of bootstrap must be ...``).
    """
    data = check_dataset(X, y, func=func, feature_names=feature_names)
    b = check_int(n_bootstraps, "n_bootstraps", func, min_value=2)
    assert b is not None
    p = data.n_features_in
    sel = get_selector(selector, selector_params, func=func)
    if n_features is None and sel.kind != "subset":
        raise param_error("n_features", func, f"an integer in [1, {p}] for the ranking "
                          f"selector {sel.name!r} (None is only for subset selectors)", None)
    m = check_int(n_features, "n_features", func, min_value=1, max_value=p,
                  allow_none=sel.kind == "subset")
    method = check_choice(resampling, "resampling", func, RESAMPLING_METHODS)
    if method == "complementary-pairs":
        if b % 2:
            raise param_error("n_bootstraps", func, "an even number for complementary "
                              "pairs (b/2 splits, both halves used)", b)
        if sample_fraction is not None and sample_fraction != 0.5:
            raise param_error("sample_fraction", func, "None or 0.5 for complementary "
                              "pairs (two halves of floor(n/2))", sample_fraction)
        if data.n_samples < 4:
            raise param_error("X", func, "at least 4 samples for complementary pairs",
                              f"{data.n_samples} samples", show=False)
    artificial = None if artificial_features is None else check_choice(
        artificial_features, "artificial_features", func, ARTIFICIAL_FEATURES)
    if artificial == "knockoff" and sp.issparse(data.X):
        raise param_error("artificial_features", func, "'permutation' for sparse data "
                          "(Gaussian knockoffs need a dense covariance)", "knockoff")
    if artificial == "knockoff" and importlib.util.find_spec("knockpy") is None:
        raise param_error("artificial_features", func, "'permutation' unless the knockpy "
                          "package is installed (pip install knockpy)", "knockoff",
                          exc=ImportError)
    if sample_fraction is None:
        fraction = {"bootstrap": 1.0, "subsample": 0.9, "complementary-pairs": 0.5}[method]
    else:
        fraction = check_real(sample_fraction, "sample_fraction", func, low=0.0, high=1.0,
                              closed="right")
    if method == "subsample" and round(fraction * data.n_samples) >= data.n_samples:
        raise param_error("sample_fraction", func, "below 1 for subsampling without "
                          "replacement (a full subsample is the data itself)", fraction)
    if not isinstance(stratify, bool | np.bool_):
        raise param_error("stratify", func, "a bool", stratify, exc=TypeError)
    if stratify:
        counts = np.bincount(data.y)
        if counts.min() < 2:
            small = [data.classes[c].item() if hasattr(data.classes[c], "item")
                     else data.classes[c] for c in np.flatnonzero(counts < 2)]
            raise param_error("stratify", func, "False when a class has fewer than 2 "
                              "members (stratified resampling needs 2 or more per class)",
                              f"True with class(es) {small} of size 1", show=False)
    if data.classes.size > 2 and not sel.supports_multiclass:
        raise param_error("y", func, f"binary for selector {sel.name!r}",
                          f"{data.classes.size} classes", show=False)
    n_jobs_eff = check_int(n_jobs, "n_jobs", func, allow_none=True)
    if n_jobs_eff == 0:
        raise param_error("n_jobs", func, "a non-zero integer or None", n_jobs)

    counts = np.bincount(data.y)
    if counts.min() < MIN_SAMPLES_PER_CLASS:
        small = [_label(data.classes[c]) for c in np.flatnonzero(counts < MIN_SAMPLES_PER_CLASS)]
        raise param_error("y", func, f"labels with at least {MIN_SAMPLES_PER_CLASS} samples "
                          "per class (a resample must hold two classes, and ReliefF a "
                          "nearest hit)", f"class(es) {small} with fewer, among "
                          f"{data.n_samples} samples", show=False)
    if not _has_varying_feature(data.X):
        raise param_error("X", func, "data with at least one non-constant feature (no "
                          "selector can rank features that never vary)",
                          f"{p} constant feature(s)", show=False)
    drawn = (data.n_samples // 2 if method == "complementary-pairs"
             else max(2, round(fraction * data.n_samples)))
    # With artificial features the selector sees 2p columns (and the models hold them
    # until the artificial part is split off).
    need = estimate_memory(b, p if artificial is None else 2 * p, drawn)
    available = available_memory()
    if available is not None and need > available:
        most = max(2, int(b * available / need))
        raise param_error("n_bootstraps", func, f"at most about {most} here: {b} base "
                          f"models of {p} features need about {_gib(need)} of memory, and "
                          f"{_gib(available)} are available", b)
    if n_jobs_eff is not None and n_jobs_eff > (os.cpu_count() or 1):
        warnings.warn(f"n_jobs={n_jobs_eff} is above the {os.cpu_count()} cores of this "
                      "machine: the extra workers only compete for them (results do not "
                      "depend on n_jobs).", UserWarning, stacklevel=3)
    return BootstrapArguments(data=data, n_bootstraps=b, selector=sel, n_features=m,
                              resampling=method, sample_fraction=fraction,
                              stratify=bool(stratify), n_jobs=n_jobs_eff,
                              artificial_features=artificial)


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


def bootstrap(
    X: Any,
    y: Any,
    selector: Any = "svm-rfe",
    *,
    n_bootstraps: int = 150,
    n_features: int | None = 20,
    resampling: str = "bootstrap",
    sample_fraction: float | None = None,
    stratify: bool = False,
    selector_params: dict[str, Any] | None = None,
    feature_names: Any = None,
    random_state: Any = None,
    n_jobs: int | None = None,
    executor: Any = None,
    run_dir: str | os.PathLike[str] | None = None,
    resume: bool = False,
    checkpoint_every: int = 10,
    fit_full: bool = True,
    progress: bool | None = None,
    artificial_features: str | None = None,
) -> BaseModels:
    """Run a feature selector on ``n_bootstraps`` resamples: the base feature models.

    The first stage of model mining (Woznica, Nguyen and Kalousis, KDD 2012, sections 2-3):
    b base models, each as scores, a ranking and a subset of ``n_features`` features.

    Parameters
    ----------
    X : array-like, DataFrame or scipy.sparse matrix of shape (n_samples, p)
        Numeric data without NaN or inf. Sparse input stays sparse.
    y : array-like of shape (n_samples,)
        Class labels, any encoding (-1/1, 1/2, strings); two or more classes.
    selector : str, Selector, estimator, callable, or a list of them, default="svm-rfe"
        A registered name (:func:`modelmine.selectors.available`: "chi2", "anova", "ig",
        "su", "relieff", "svm-rfe", "svm", "l1-logistic", "random-forest", "cfs",
        "gainratio", "oner", "mrmr", "svm-rfe50", ...), a
        :class:`modelmine.selectors.Selector`, a scikit-learn estimator (with ``coef_`` /
        ``feature_importances_``, or a ``SelectorMixin``), or a callable
        ``(X, y) -> scores``. A list makes a heterogeneous ensemble (Salman 2022, Section
        3.2.2, BAM): every selector is fitted on the same b resamples, the result holds
        ``len(selector) * b`` models and ``BaseModels.model_selectors`` says which selector
        made each; ``selector_params`` then maps a selector name to its parameters.
    n_bootstraps : int, default=150
        b, the number of resamples (the paper's 150); at least 2.
    n_features : int or None, default=20
        m, the subset size: the top m features of each ranking. For selectors that choose
        their own subset (``"l1-logistic"``, a ``SelectorMixin`` without ``ranking_``), a
        cap; None keeps their whole subset (and is refused for ranking selectors).
    resampling : {"bootstrap", "subsample", "complementary-pairs"}, default="bootstrap"
        With replacement (bootstrap, KDD 2012) or without (subsampling, Saeys et al.
        2008 and Pes 2019; with ``sample_fraction=0.5`` the subsamples of Meinshausen and
        Buehlmann's stability selection, 2010). ``"complementary-pairs"``: b/2 random
        splits of the samples into two disjoint halves of floor(n/2), both halves used
        (models 2i and 2i+1 are the two halves of split i; Shah and Samworth 2013), the
        scheme the Shah-Samworth bounds of ``stabilitySelection`` need; b must be even.
    sample_fraction : float in (0, 1], optional
        Size of each resample as a fraction of n: default 1.0 for the bootstrap, 0.9 for
        subsampling; 0.5 (the only value accepted) for complementary pairs.
    stratify : bool, default=False
        Keep the class proportions in every resample (each class needs 2 or more members).
    selector_params : dict, optional
        Parameters of a built-in selector, for example ``{"C": 1.0}`` for "svm-rfe".
    feature_names : sequence of str, optional
        Default: the DataFrame's columns, else ``x0``, ``x1``, ...
    random_state : int, SeedSequence or None
        Seed of the whole run. None draws fresh entropy and records it in the result's
        ``random_state``, so any run can be reproduced.
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
        ``checkpoint_every`` is kept).
    checkpoint_every : int, default=10
        Bootstraps per checkpointed chunk when ``run_dir`` is given.
    fit_full : bool, default=True
        Also fit the selector once on all the data and keep it as ``full_model``: the
        "nobagg" baseline of KDD 2012 (section 3), at the cost of one more fit.
    progress : bool or None
        Show a progress bar; None shows it when stderr is a terminal.
    artificial_features : {"permutation", "knockoff"} or None, default=None
        Append p artificial features to the data before resampling (one per real
        feature; see :func:`add_artificial_features`): each real column independently
        permuted (Stabl's decoys, Boruta's shadows), or Gaussian model-X knockoffs through
        ``knockpy``. The selector runs on the 2p columns; the BaseModels keep the real
        features as usual (a model's real subset may then hold fewer than m features) and
        what each model selected among the artificial ones in
        ``artificial_subsets``, for the ``stabl`` operator (Hedou et al. 2024). The
        full-data model (``fit_full``) is fitted on the real features only.

    Returns
    -------
    BaseModels

    Examples
    --------
    >>> import modelmine as mm
    >>> X, y = mm.datasets.load_colon()
    >>> base = mm.bootstrap(X, y, selector="anova", n_bootstraps=20, n_features=10,
    ...                     random_state=0)
    >>> base.subsets.shape
    (20, 2000)
    """
    if isinstance(selector, list | tuple):
        return _bootstrap_heterogeneous(
            X, y, list(selector), n_bootstraps=n_bootstraps, n_features=n_features,
            resampling=resampling, sample_fraction=sample_fraction, stratify=stratify,
            selector_params=selector_params, feature_names=feature_names,
            random_state=random_state, n_jobs=n_jobs, executor=executor, run_dir=run_dir,
            resume=resume, progress=progress)
    args = check_bootstrap_arguments(
        X, y, selector, n_bootstraps=n_bootstraps, n_features=n_features,
        resampling=resampling, sample_fraction=sample_fraction, stratify=stratify,
        selector_params=selector_params, feature_names=feature_names, n_jobs=n_jobs,
        artificial_features=artificial_features)
    if run_dir is None:
        return _bootstrap(args, random_state=random_state, executor=executor, store_dir=None,
                          resume=resume, checkpoint_every=checkpoint_every, fit_full=fit_full,
                          progress=progress)
    with directory_lock(run_dir, what="bootstrap"):
        return _bootstrap(args, random_state=random_state, executor=executor,
                          store_dir=run_dir, resume=resume,
                          checkpoint_every=checkpoint_every, fit_full=fit_full,
                          progress=progress)


def _bootstrap(args: BootstrapArguments, *, random_state: Any, executor: Any,
               store_dir: str | os.PathLike[str] | None, resume: bool, checkpoint_every: int,
               fit_full: bool, progress: bool | None) -> BaseModels:
    data, b, p, sel, m = args.data, args.n_bootstraps, args.data.n_features_in, args.selector, \
        args.n_features
    method, fraction, stratify, n_jobs_eff = (args.resampling, args.sample_fraction,
                                              args.stratify, args.n_jobs)
    artificial = args.artificial_features
    run_dir = store_dir
    every = check_int(checkpoint_every, "checkpoint_every", _FUNC, min_value=1)
    fingerprint = data_fingerprint(data.X, data.y)
    if resume and run_dir is None:
        raise param_error("run_dir", _FUNC, "a run directory when resume=True", None)
    if run_dir is not None and resume and (Path(run_dir) / "manifest.json").exists():
        recorded = RunDirectory.read_manifest(run_dir)["settings"]
        # The chunk layout is the run's own; a seed of None means the recorded one.
        every = int(recorded["checkpoint_every"])
        if random_state is None:
            random_state = int(recorded["random_state"])
    ss = seed_sequence(random_state)
    # Children 0..b-1 seed the bootstraps; child b seeds the full-data fit. The splits of
    # complementary pairs and the artificial features have their own keys beyond those
    # (what further spawning would give), so that adding them changes no other seed.
    children = ss.spawn(b + 1)
    full_seed = children.pop()
    resampling_record = {"method": method, "stratify": bool(stratify), "fraction": fraction}
    seeds: list[Any] = list(children)
    if method == "complementary-pairs":
        resampling_record["n_pairs"] = b // 2
        seeds = [(children[i], np.random.SeedSequence(
            ss.entropy, spawn_key=(*ss.spawn_key, b + 1, i // 2)), i % 2) for i in range(b)]
    X_fit = data.X
    artificial_record: dict[str, Any] = {}
    if artificial is not None:
        art_seed = np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, b + 2))
        X_fit = add_artificial_features(data.X, artificial, np.random.default_rng(art_seed))
        artificial_record = {"method": artificial, "n_features": p}
    p_fit = X_fit.shape[1]

    store = None
    done: dict[int, dict[str, np.ndarray]] = {}
    if run_dir is not None:
        settings = {
            "selector": sel.describe(), "n_bootstraps": b, "n_features": m,
            "resampling": resampling_record, "random_state": str(ss.entropy),
            "fit_full": bool(fit_full), "checkpoint_every": every,
            "feature_names_sha256": hashlib.sha256(
                "\n".join(data.feature_names).encode()).hexdigest(),
        }
        if artificial is not None:
            settings["artificial_features"] = artificial
        store = RunDirectory(run_dir, settings, fingerprint)
        store.open(resume=resume)
        chunks = [np.arange(b)[i:i + every] for i in range(0, b, every)]
        # Checkpointed chunks hold the models over the columns the selector saw.
        done = store.finished_chunks([len(c) for c in chunks], p_fit, data.n_samples)
    runner = Runner(executor, n_jobs_eff)
    if store is None:
        chunks = _chunks(b, runner.workers)

    subsets = np.zeros((b, p_fit), dtype=bool)
    ranks = np.zeros((b, p_fit), dtype=np.int32)
    scores: np.ndarray | None = None
    sample_indices: np.ndarray | None = None

    def fill(chunk: np.ndarray, idx: np.ndarray, sub: np.ndarray, rk: np.ndarray,
             sc: np.ndarray | None) -> None:
        nonlocal scores, sample_indices
        if sample_indices is None:
            sample_indices = np.zeros((b, idx.shape[1]), dtype=np.int32)
        sample_indices[chunk] = idx
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
    kwargs = dict(selector=sel, method=method, fraction=fraction, stratify=bool(stratify),
                  n_features=m, n_real=p)
    bar = progress_bar(b, f"bootstrap {sel.name}", "fit", progress)
    bar.update(sum(len(chunks[c]) for c in done))
    try:
        tasks = {cid: [seeds[i] for i in chunks[cid]] for cid in pending}
        for cid, result in runner.run(_fit_chunk, X_fit, data.y, tasks, kwargs):
            idx = np.vstack([r[0] for r in result]).astype(np.int32)
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
        runner.close()

    full_model = None
    if fit_full:
        saved = store.full_model() if store is not None else None
        if saved is not None:
            full_model = FeatureModel(scores=saved.get("scores"), ranks=saved["ranks"],
                                      subset=saved["subset"])
        else:
            with threadpool_limits(limits=1):
                seed = int(np.random.default_rng(full_seed).integers(0, 2**31 - 1))
                full_model = model_from_output(
                    sel.select(data.X, data.y, random_state=seed), n_features_in=p,
                    n_features=m, selector=sel.name)
            if store is not None:
                arrays = {"ranks": full_model.ranks, "subset": full_model.subset}
                if full_model.scores is not None:
                    arrays["scores"] = full_model.scores
                store.write_full_model(arrays)
    assert sample_indices is not None
    artificial_subsets = None
    if artificial is not None:
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
    base = BaseModels(
        subsets=subsets, ranks=ranks, scores=scores, sample_indices=sample_indices,
        feature_names=data.feature_names, selector=sel.describe(), n_features=m,
        resampling=resampling_record,
        random_state=int(ss.entropy),  # type: ignore[arg-type]
        classes=[c.item() if hasattr(c, "item") else c for c in data.classes],
        n_samples=data.n_samples, data_sha256=fingerprint, full_model=full_model,
        artificial_subsets=artificial_subsets, artificial=artificial_record,
    )
    if store is not None:
        store.finish(base)
    return base


def resume(
    run_dir: str | os.PathLike[str], X: Any, y: Any, *, selector: Any = None,
    feature_names: Any = None, n_jobs: int | None = None, executor: Any = None,
    progress: bool | None = None,
) -> BaseModels:
    """Continue a bootstrap run recorded in ``run_dir`` (for example after a crash).

    The settings are read from the run's manifest; the data must be the same as the run's
    (checked by fingerprint). The result is bit-identical to an uninterrupted run.

    Parameters
    ----------
    run_dir : path-like
        A directory written by :func:`bootstrap` with ``run_dir``.
    X, y : the run's data.
    selector : Selector, estimator or callable, optional
        Needed only when the run used a custom selector (built-in ones are rebuilt from
        the manifest); it must describe itself exactly as the recorded one.
    feature_names, n_jobs, executor, progress : as in :func:`bootstrap`.
    """
    settings = RunDirectory.read_manifest(run_dir)["settings"]
    recorded = settings["selector"]
    from ..selectors import default_registry

    if selector is None:
        if recorded["name"] not in default_registry():
            raise param_error("selector", "resume", f"the custom selector the run used "
                              f"({recorded['name']!r}, {recorded['params']})", None)
        selector, params = recorded["name"], recorded["params"]
    else:
        params = None
    res = settings["resampling"]
    return bootstrap(
        X, y, selector, n_bootstraps=settings["n_bootstraps"],
        n_features=settings["n_features"], resampling=res["method"],
        sample_fraction=res["fraction"], stratify=res["stratify"], selector_params=params,
        feature_names=feature_names, random_state=int(settings["random_state"]),
        n_jobs=n_jobs, executor=executor, run_dir=run_dir, resume=True,
        checkpoint_every=settings["checkpoint_every"], fit_full=settings["fit_full"],
        progress=progress, artificial_features=settings.get("artificial_features"),
    )


def _bootstrap_heterogeneous(
    X: Any, y: Any, selectors: list[Any], *, n_bootstraps: int, n_features: int | None,
    resampling: str, sample_fraction: float | None, stratify: bool,
    selector_params: dict[str, Any] | None, feature_names: Any, random_state: Any,
    n_jobs: int | None, executor: Any, run_dir: Any, resume: bool, progress: bool | None,
) -> BaseModels:
    """Every selector on the same b resamples, pooled (Salman 2022, Section 3.2.2).

    The resamples depend only on (random_state, i), never on the selector, so fitting each
    selector with the same seed gives the same b resamples to all of them.
    """
    from ..selectors import default_registry

    if len(selectors) < 1:
        raise param_error("selector", _FUNC, "a non-empty list of selectors", selectors)
    if run_dir is not None or resume:
        raise param_error("run_dir", _FUNC, "None for a list of selectors (checkpointed "
                          "runs take one selector)", run_dir)
    sels = []
    for spec in selectors:
        if isinstance(spec, str):
            if spec not in default_registry():
                listed = ", ".join(repr(s) for s in default_registry().names())
                raise default_registry().unknown(spec, _FUNC, "selector",
                                                 f"one of {listed}")
            params = dict((selector_params or {}).get(spec, {}))
            sels.append(get_selector(spec, params, func=_FUNC))
        else:
            sels.append(get_selector(spec, None, func=_FUNC))
    names = [s.name for s in sels]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise param_error("selector", _FUNC, "a list of distinct selectors",
                          f"{names} (repeated: {', '.join(repr(d) for d in dupes)})",
                          show=False)
    if selector_params:
        unknown = sorted(set(selector_params) - set(names))
        if unknown:
            raise param_error("selector_params", _FUNC, "a mapping from selector names of "
                              f"the list ({', '.join(map(repr, names))}) to parameters",
                              selector_params, hint=f"Unknown: {unknown}.")
    # Every selector is checked (hardening: data, classes, multiclass support, memory)
    # before the first fit, so a bad list fails at once.
    checked = [check_bootstrap_arguments(
        X, y, sel, n_bootstraps=n_bootstraps, n_features=n_features, resampling=resampling,
        sample_fraction=sample_fraction, stratify=stratify, feature_names=feature_names,
        n_jobs=n_jobs) for sel in sels]
    first_args = checked[0]
    b, p = first_args.n_bootstraps, first_args.data.n_features_in
    drawn = max(2, round(first_args.sample_fraction * first_args.data.n_samples))
    need = estimate_memory(len(sels) * b, p, drawn)
    available = available_memory()
    if available is not None and need > available:
        most = max(2, int(b * available / need))
        raise param_error("n_bootstraps", _FUNC, f"at most about {most} here: {len(sels)} "
                          f"selectors x {b} base models of {p} features need about "
                          f"{_gib(need)} of memory, and {_gib(available)} are available", b)
    ss = seed_sequence(random_state)
    seed = int(ss.entropy)  # type: ignore[arg-type]
    parts = [_bootstrap(args, random_state=seed, executor=executor, store_dir=None,
                        resume=False, checkpoint_every=10, fit_full=False, progress=progress)
             for args in checked]
    first = parts[0]
    without = [part.selector["name"] for part in parts if part.scores is None]
    if len(without) == len(parts):
        scores = None
    else:
        scores = np.vstack([
            part.scores if part.scores is not None
            else np.full(part.shape, np.nan, dtype=np.float32) for part in parts])
    model_selectors = [name for part in parts for name in [part.selector["name"]] * part.n_models]
    extra: dict[str, Any] = {"model_selectors": model_selectors}
    if without and scores is not None:
        extra["selectors_without_scores"] = without
    m = first.n_features
    return BaseModels(
        subsets=np.vstack([part.subsets for part in parts]),
        ranks=np.vstack([part.ranks for part in parts]), scores=scores,
        sample_indices=np.vstack([part.sample_indices for part in parts]),
        feature_names=first.feature_names,
        selector={"name": "+".join(names), "kind": "heterogeneous",
                  "params": {"selectors": [dict(part.selector) for part in parts]}},
        n_features=m, resampling=dict(first.resampling), random_state=first.random_state,
        classes=list(first.classes), n_samples=first.n_samples,
        data_sha256=first.data_sha256, full_model=None, extra=extra,
    )


def _chunks(b: int, workers: int) -> list[np.ndarray]:
    """Split range(b) into contiguous chunks: about four per worker, for load balance, and
    at most 50 bootstraps each, so progress shows and intermediate results stay small.
    (How the work is chunked never changes the result.)"""
    size = max(1, min(50, -(-b // (4 * workers))))
    return [np.arange(b)[i:i + size] for i in range(0, b, size)]



