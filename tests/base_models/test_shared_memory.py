"""The work the resamples share is estimated before the first fit, and bounded (issue 37).

``Selector.prepare`` computes once per chunk what every resample of the same rows can reuse
(MDL's, OneR's and CFS's sorted columns, the SVMs' linear kernel of sparse data, ReliefF's
folds); ``Selector.prepare_nbytes`` bounds its memory without doing it, and
``modelmine.bootstrap`` (and ``selection_null``) fall back to fitting each resample on its
own rows when the workers' copies would not fit in half of the memory available.

Truths: ``tracemalloc`` (numpy reports its allocations to it) for the estimates, which must
bound the traced peak of ``prepare`` on data of every shape the selectors meet, and not be
absurdly loose; for the fallback, ``select`` on each resample's own rows, which the
shared route equals by contract (the base models must not change, only the route).
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

import modelmine as mm
from modelmine.base_models import _bootstrap
from modelmine.evaluation import selection_null
from modelmine.selectors import get_selector

#: the built-in selectors whose prepare shares work, with the parameters that make it share
SHARING = [("ig", {}), ("chi2", {}), ("gainratio", {}), ("oner", {}), ("cfs", {}),
           ("relieff", {}), ("relieff", {"variant": "skrebate"}),
           ("svm-rfe", {"scale": "none"}), ("svm", {"scale": "none"})]


def _shapes():
    rng = np.random.default_rng(0)
    raw = rng.lognormal(9.0, 1.5, (60, 300))  # raw intensities in the tens of thousands
    raw[:, 5] = 7.0  # a constant column
    raw[:, 6] = raw[:, 7]  # duplicated columns
    counts = sp.random(400, 500, density=0.03, random_state=1, format="csr",
                       data_rvs=lambda k: rng.integers(1, 30, k).astype(float))
    mostly_zero = counts[:200].toarray()  # text read as a dense array (PCMAC)
    normalised = sp.random(300, 200, density=0.2, random_state=2, format="csc")
    many = rng.normal(size=(48, 120))  # eight classes of six samples
    return {
        "raw": (raw, rng.integers(0, 2, 60)),
        "counts": (counts, rng.integers(0, 2, 400)),
        "mostly_zero": (mostly_zero, rng.integers(0, 3, 200)),
        "normalised_csc": (normalised, rng.integers(0, 2, 300)),
        "many_classes": (many, np.repeat(np.arange(8), 6)),
    }


SHAPES = _shapes()


def _traced_peak(selector, X, y):
    """The traced peak of the selector's own prepare (the door's input check, which any
    call makes, is not the shared work), and what it returned."""
    prepare = type(selector).prepare
    prepare = getattr(prepare, "__wrapped__", prepare)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        prepared = prepare(selector, X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, prepared


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("name,params", SHARING, ids=[f"{n}{p}" for n, p in SHARING])
def test_the_estimate_bounds_the_traced_peak_of_prepare(name, params, shape):
    X, y = SHAPES[shape]
    selector = get_selector(name, params)
    estimate = selector.prepare_nbytes(X, y)
    peak, prepared = _traced_peak(selector, X, y)
    slack = 64 * 1024  # the Python objects around the arrays
    assert peak <= estimate + slack, (name, shape, peak, estimate)
    if prepared is None:
        assert estimate == 0
    # an upper bound, not a wild one: a needless fallback costs time
    assert estimate <= 25 * peak + 2**20, (name, shape, peak, estimate)


def test_selectors_that_share_nothing_estimate_nothing():
    X, y = SHAPES["raw"]
    for name in ("anova", "random-forest", "svm-rfe", "svm"):  # svm: min-max per resample
        selector = get_selector(name)
        assert selector.prepare(X, y) is None
        assert selector.prepare_nbytes(X, y) == 0


@pytest.fixture
def no_memory(monkeypatch):
    """A machine with 1 MiB available: every estimate above 256 KiB per worker (2 workers)
    is over the budget."""
    monkeypatch.setattr(_bootstrap, "available_memory", lambda: 2**20)


@pytest.mark.parametrize("name,params,shape", [
    ("ig", {}, "raw"), ("cfs", {}, "counts"), ("chi2", {}, "mostly_zero"),
    ("relieff", {"variant": "skrebate"}, "normalised_csc"),
    ("svm-rfe", {"scale": "none"}, "counts"),
])
def test_over_the_budget_each_resample_fits_alone_with_the_same_models(
        name, params, shape, no_memory):
    """Deterministic selectors: the truth is select on the resample's rows."""
    X, y = SHAPES[shape]
    selector = get_selector(name, params)
    need = selector.prepare_nbytes(X, y)
    assert need > 2**20 // 4
    with pytest.warns(RuntimeWarning) as caught:
        alone = mm.bootstrap(X, y, selector=name, selector_params=params, n_bootstraps=3,
                             n_features=10, random_state=3, n_jobs=2, progress=False)
    text = " ".join(str(w.message) for w in caught)
    assert f"{name!r}" in text and "per worker" in text and "own rows" in text
    assert "1.0 MiB" in text or "1 MiB" in text  # the memory available, stated
    # the truth: select on each resample's own rows (what the fallback must equal)
    for i in range(alone.n_models):
        rows = alone.resample(i)
        want = selector.select(X[rows], y[rows], random_state=0)
        if want.ranking is not None:
            np.testing.assert_array_equal(alone.ranks[i], want.ranking)
        else:
            np.testing.assert_allclose(alone.scores[i], want.scores.astype(np.float32),
                                       rtol=1e-6)


@pytest.mark.parametrize("name,params,shape", [
    ("ig", {}, "raw"), ("cfs", {}, "counts"), ("oner", {}, "mostly_zero"),
    ("relieff", {"variant": "skrebate"}, "counts"), ("svm-rfe", {"scale": "none"}, "counts")])
def test_the_fallback_changes_no_base_model(name, params, shape, monkeypatch):
    """Selectors with a seed of their own too (OneR's cross-validation parts)."""
    X, y = SHAPES[shape]
    kwargs = dict(selector=name, selector_params=params, n_bootstraps=2, n_features=10,
                  random_state=5, progress=False)
    shared = mm.bootstrap(X, y, **kwargs)
    monkeypatch.setattr(_bootstrap, "available_memory", lambda: 2**20)
    with pytest.warns(RuntimeWarning, match="own rows"):
        alone = mm.bootstrap(X, y, **kwargs)
    assert alone == shared


def test_per_class_models_fall_back_too(monkeypatch):
    """The per-class panels (each class against the rest, one sort shared by the classes)."""
    X, y = SHAPES["many_classes"]
    X = np.repeat(X, 12, axis=1)  # 1,440 columns: sorted (12 n p bytes), above the budget
    kwargs = dict(selector="ig", per_class=True, n_bootstraps=3, n_features=5,
                  operators=["mostFreq"], random_state=1, stratify=True, progress=False)
    shared = mm.run(X, y, **kwargs)
    monkeypatch.setattr(_bootstrap, "available_memory", lambda: 2**20)
    with pytest.warns(RuntimeWarning, match="'ig'"):
        alone = mm.run(X, y, **kwargs)
    assert alone.class_frequencies is not None
    assert alone.class_frequencies.equals(shared.class_frequencies)
    assert alone.base_models == shared.base_models


def test_the_permutation_null_falls_back_with_the_same_counts(monkeypatch):
    X, y = SHAPES["raw"]
    base = mm.bootstrap(X, y, selector="ig", n_bootstraps=4, n_features=5, random_state=2,
                        progress=False)
    shared = selection_null(X, y, base=base, n_permutations=10, n_jobs=1, progress=False)
    monkeypatch.setattr(_bootstrap, "available_memory", lambda: 2**20)
    with pytest.warns(RuntimeWarning, match="selection_null"):
        alone = selection_null(X, y, base=base, n_permutations=10, n_jobs=1, progress=False)
    np.testing.assert_array_equal(alone.null_frequencies, shared.null_frequencies)


def test_sample_weights_share_nothing_and_do_not_warn(no_memory, recwarn):
    X, y = SHAPES["counts"]
    assert get_selector("svm-rfe", {"scale": "none"}).prepare_nbytes(X, y) > 2**20
    w = np.linspace(0.5, 2.0, y.size)
    mm.bootstrap(X, y, selector="svm-rfe", selector_params={"scale": "none"}, n_bootstraps=2,
                 n_features=5, random_state=0, sample_weight=w, progress=False)
    assert not [w for w in recwarn if "own rows" in str(w.message)]


def test_published_estimates_recomputed():
    """A cheap slice of ``benchmarks/results/shared_memory.csv`` (quoted in
    docs/performance.md): colon's training fold, and the dense 10^5 x 2 x 10^4 matrix that
    is never allocated."""
    from pathlib import Path

    import pandas as pd

    table = pd.read_csv(Path(__file__).resolve().parents[2] / "benchmarks" / "results"
                        / "shared_memory.csv")
    X, y = mm.datasets.load("colon")
    train = np.sort(np.random.default_rng(0).choice(y.size, round(0.9 * y.size),
                                                    replace=False))
    X, y = np.asarray(X, dtype=np.float64)[train], np.asarray(y)[train]
    dense = np.broadcast_to(np.random.default_rng(0).uniform(1.0, 2.0, 20_000),
                            (100_000, 20_000))
    for data, X_, y_ in [("colon", X, y), ("dense continuous (never allocated)", dense,
                                           np.arange(100_000) % 2)]:
        for name, params in [("ig", {}), ("relieff", {"variant": "skrebate"})]:
            label = name + "".join(f" {k}={v}" for k, v in params.items())
            row = table[(table.data == data) & (table.selector == label)]
            estimate = get_selector(name, params).prepare_nbytes(X_, y_) / 2**20
            assert round(estimate, 2) == pytest.approx(float(row.estimate_mib.iloc[0]))


def test_the_fallback_keeps_repeated_patients_together(monkeypatch):
    """Resamples of whole groups (repeated samples of one patient): the fallback changes
    the route only, not which rows each resample holds nor its model."""
    X, y = SHAPES["raw"]
    groups = np.repeat(np.arange(30), 2)  # two samples per patient, one class each
    y = np.repeat(np.arange(30) % 2, 2)
    kwargs = dict(selector="ig", n_bootstraps=4, n_features=5, random_state=8, groups=groups,
                  progress=False)
    shared = mm.bootstrap(X, y, **kwargs)
    monkeypatch.setattr(_bootstrap, "available_memory", lambda: 2**20)
    with pytest.warns(RuntimeWarning, match="own rows"):
        alone = mm.bootstrap(X, y, **kwargs)
    assert alone == shared
    for i in range(alone.n_models):  # whole patients in every resample
        rows = alone.resample(i)
        assert all(np.isin(np.flatnonzero(groups == g), rows).all() for g in groups[rows])
