"""Real base models for the operator tests: colon and leukemia, two selectors each."""

from __future__ import annotations

import pytest

import modelmine as mm

# (dataset, selector, b): small b keeps the suite fast; the slow tests use b = 150.
BASES = [("colon", "anova", 40), ("colon", "relieff", 30), ("leukemia", "anova", 40),
         ("leukemia", "relieff", 30)]


@pytest.fixture(scope="session")
def base_cache():
    return {}


def make_base(cache, dataset, selector, b, m=20, seed=0):
    key = (dataset, selector, b, m, seed)
    if key not in cache:
        X, y = getattr(mm.datasets, f"load_{dataset}")()
        cache[key] = mm.bootstrap(X, y, selector=selector, n_bootstraps=b, n_features=m,
                                  random_state=seed)
    return cache[key]


@pytest.fixture(scope="session")
def base_factory(base_cache):
    """``(dataset, selector, b, m=20, seed=0) -> BaseModels``, cached for the session."""
    return lambda *args, **kwargs: make_base(base_cache, *args, **kwargs)


@pytest.fixture(params=BASES, ids=[f"{d}-{s}-b{b}" for d, s, b in BASES])
def real_base(request, base_cache):
    return make_base(base_cache, *request.param)
