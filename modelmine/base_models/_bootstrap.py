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

import numbers
import sys
from typing import Any

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from threadpoolctl import threadpool_limits

from .._data import check_dataset
from .._validation import check_choice, check_int, check_real, param_error
from ..selectors import Selector, get_selector, model_from_output
from ._base_models import BaseModels, data_fingerprint

__all__ = ["bootstrap", "resample_indices", "seed_sequence"]

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


def _fit_chunk(
    X: Any, y: np.ndarray, selector: Selector, seeds: list[np.random.SeedSequence],
    *, method: str, fraction: float, stratify: bool, n_features: int | None,
) -> list[tuple[np.ndarray, Any]]:
    """Fit the selector on the resamples of a chunk of bootstraps, single-threaded."""
    out = []
    with threadpool_limits(limits=1):
        for seed in seeds:
            rng = np.random.default_rng(seed)
            idx = resample_indices(y, rng, method=method, fraction=fraction, stratify=stratify)
            selector_seed = int(rng.integers(0, 2**31 - 1))
            output = selector.select(X[idx], y[idx], random_state=selector_seed)
            model = model_from_output(output, n_features_in=X.shape[1], n_features=n_features,
                                      selector=selector.name)
            out.append((idx, model))
    return out


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
    fit_full: bool = True,
    progress: bool | None = None,
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
    selector : str, Selector, estimator or callable, default="svm-rfe"
        A built-in name ("chi2", "anova", "ig", "su", "relieff", "svm-rfe", "svm",
        "l1-logistic", "random-forest"), a :class:`modelmine.selectors.Selector`, a
        scikit-learn estimator (with ``coef_`` / ``feature_importances_``, or a
        ``SelectorMixin``), or a callable ``(X, y) -> scores``.
    n_bootstraps : int, default=150
        b, the number of resamples (the paper's 150); at least 2.
    n_features : int or None, default=20
        m, the subset size: the top m features of each ranking. For selectors that choose
        their own subset (``"l1-logistic"``, a ``SelectorMixin`` without ``ranking_``), a
        cap; None keeps their whole subset (and is refused for ranking selectors).
    resampling : {"bootstrap", "subsample"}, default="bootstrap"
        With replacement (bootstrap, KDD 2012) or without (subsampling, Saeys et al.
        2008 and Pes 2019).
    sample_fraction : float in (0, 1], optional
        Size of each resample as a fraction of n: default 1.0 for the bootstrap, 0.9 for
        subsampling.
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
    fit_full : bool, default=True
        Also fit the selector once on all the data and keep it as ``full_model``: the
        "nobagg" baseline of KDD 2012 (section 3), at the cost of one more fit.
    progress : bool or None
        Show a progress bar; None shows it when stderr is a terminal.

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
    data = check_dataset(X, y, func=_FUNC, feature_names=feature_names)
    b = check_int(n_bootstraps, "n_bootstraps", _FUNC, min_value=2)
    assert b is not None
    p = data.n_features
    sel = get_selector(selector, selector_params, func=_FUNC)
    if n_features is None and sel.kind != "subset":
        raise param_error("n_features", _FUNC, f"an integer in [1, {p}] for the ranking "
                          f"selector {sel.name!r} (None is only for subset selectors)", None)
    m = check_int(n_features, "n_features", _FUNC, min_value=1, max_value=p,
                  allow_none=sel.kind == "subset")
    method = check_choice(resampling, "resampling", _FUNC, ["bootstrap", "subsample"])
    if sample_fraction is None:
        fraction = 1.0 if method == "bootstrap" else 0.9
    else:
        fraction = check_real(sample_fraction, "sample_fraction", _FUNC, low=0.0, high=1.0,
                              closed="right")  # type: ignore[assignment]
    if method == "subsample" and round(fraction * data.n_samples) >= data.n_samples:
        raise param_error("sample_fraction", _FUNC, "below 1 for subsampling without "
                          "replacement (a full subsample is the data itself)", fraction)
    if not isinstance(stratify, bool | np.bool_):
        raise param_error("stratify", _FUNC, "a bool", stratify, exc=TypeError)
    if stratify:
        counts = np.bincount(data.y)
        if counts.min() < 2:
            small = [data.classes[c].item() if hasattr(data.classes[c], "item")
                     else data.classes[c] for c in np.flatnonzero(counts < 2)]
            raise param_error("stratify", _FUNC, "False when a class has fewer than 2 "
                              "members (stratified resampling needs 2 or more per class)",
                              f"True with class(es) {small} of size 1", show=False)
    if data.classes.size > 2 and not sel.supports_multiclass:
        raise param_error("y", _FUNC, f"binary for selector {sel.name!r}",
                          f"{data.classes.size} classes", show=False)
    n_jobs_eff = check_int(n_jobs, "n_jobs", _FUNC, allow_none=True)
    if n_jobs_eff == 0:
        raise param_error("n_jobs", _FUNC, "a non-zero integer or None", n_jobs)

    ss = seed_sequence(random_state)
    # Child b (after the b bootstrap children) seeds the full-data fit.
    children = ss.spawn(b + 1)
    full_seed = children.pop()
    workers = effective_n_jobs(n_jobs_eff)
    chunks = _chunks(b, workers)
    show = sys.stderr.isatty() if progress is None else bool(progress)

    subsets = np.zeros((b, p), dtype=bool)
    ranks = np.zeros((b, p), dtype=np.int32)
    scores: np.ndarray | None = None
    indices: list[np.ndarray | None] = [None] * b
    kwargs = dict(method=method, fraction=fraction, stratify=bool(stratify), n_features=m)
    tasks = (delayed(_fit_chunk)(data.X, data.y, sel, [children[i] for i in chunk], **kwargs)
             for chunk in chunks)
    bar = _progress(b, sel.name, show)
    try:
        results = Parallel(n_jobs=workers, return_as="generator")(tasks)
        for chunk, chunk_result in zip(chunks, results, strict=True):
            for i, (idx, model) in zip(chunk, chunk_result, strict=True):
                indices[i] = idx
                subsets[i] = model.subset
                ranks[i] = model.ranks
                if model.scores is not None:
                    if scores is None:
                        scores = np.full((b, p), np.nan)
                    scores[i] = model.scores
            bar.update(len(chunk))
    finally:
        bar.close()
    full_model = None
    if fit_full:
        with threadpool_limits(limits=1):
            seed = int(np.random.default_rng(full_seed).integers(0, 2**31 - 1))
            full_model = model_from_output(
                sel.select(data.X, data.y, random_state=seed), n_features_in=p,
                n_features=m, selector=sel.name)
    # Every resample has the same size (per-class sizes are fixed by the rounding rule).
    sample_indices = np.vstack([np.asarray(ix) for ix in indices])
    return BaseModels(
        subsets=subsets, ranks=ranks, scores=scores, sample_indices=sample_indices,
        feature_names=data.feature_names, selector=sel.describe(), n_features=m,
        resampling={"method": method, "stratify": bool(stratify), "fraction": fraction},
        random_state=int(ss.entropy),  # type: ignore[arg-type]
        classes=[c.item() if hasattr(c, "item") else c for c in data.classes],
        n_samples=data.n_samples, data_sha256=data_fingerprint(data.X, data.y),
        full_model=full_model,
    )


def _chunks(b: int, workers: int) -> list[np.ndarray]:
    """Split range(b) into contiguous chunks: a few per worker, for load balance."""
    n_chunks = 1 if workers == 1 else min(b, 4 * workers)
    return [c for c in np.array_split(np.arange(b), n_chunks) if c.size]


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, name: str, show: bool) -> Any:
    if not show:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=f"bootstrap {name}", unit="fit", file=sys.stderr,
                leave=False)

