"""WEKA-style ReliefF against real WEKA 3.6 (``ReliefFAttributeEval``), the oracle of issue 24.

:func:`modelmine.selectors.relieff_weka_scores` must print as WEKA prints (six decimals)
with and without the distance weighting (``-W``), on the shared microarrays (a bounded number
of columns: every column in ``benchmarks/bench_weka_relieff_svm.py``), on multiclass data
(misses weighted by the class priors) and on three-level data (tied distances). WEKA's
answers are all read from one JVM (``tests/weka_batch.py``, the module's ``weka``
fixture). The tests skip when WEKA is absent, except under ``MODELMINE_REQUIRE_WEKA=1`` (CI),
where they fail.
"""

from __future__ import annotations

import numpy as np
import pytest
from weka_batch import Arffs, Scores, Sort, order_of, run, scores_of
from weka_oracle import requires_weka

import modelmine as mm
from modelmine.selectors import relieff_weka_scores
from modelmine.selectors._relieff_weka import _weka_sort

pytestmark = requires_weka

# Full-precision scores (evaluateAttribute) from WEKA: ours must agree to 1e-9 (relative),
# far below the 6 decimals its Ranker prints.
_RTOL = 1e-9


def _close(ours: np.ndarray, weka: np.ndarray) -> bool:
    return bool(np.all(np.abs(ours - weka) <= _RTOL * np.maximum(1e-3, np.abs(weka))))


def _shared(name: str, p: int) -> tuple[np.ndarray, np.ndarray]:
    X, y = mm.datasets.load(name)
    return np.asarray(X, dtype=np.float64)[:, :p], np.unique(y, return_inverse=True)[1]


def _multiclass(n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """leukemia (150 columns) with its classes split at random into unequal classes."""
    X, y = _shared("leukemia", 150)
    rs = np.random.RandomState(0)
    y = y.copy()
    y[(y == 0) & (rs.rand(y.size) < 0.4)] = 2
    if n_classes == 4:
        y[(y == 1) & (rs.rand(y.size) < 0.4)] = 3
    return X, y


def _three_level() -> tuple[np.ndarray, np.ndarray]:
    """-1/0/1 data (many tied distances) with 10 weakly informative columns."""
    rs = np.random.RandomState(1)
    y = (rs.rand(60) > 0.5).astype(np.int64)
    shift = 0.6 * y[:, None] * (np.arange(200) < 10)
    return np.sign(np.round(rs.randn(60, 200) + shift)), y


CASES = {
    "colon": lambda: _shared("colon", 200),
    "leukemia": lambda: _shared("leukemia", 200),
    "prostate": lambda: _shared("prostate", 200),
    "three-class": lambda: _multiclass(3),
    "four-class": lambda: _multiclass(4),
    "three-level": _three_level,
}


SORT_CASES = 200


def _sort_cases() -> list[np.ndarray]:
    """Short vectors of 0, 1 and 2: ties everywhere."""
    rs = np.random.RandomState(3)
    return [rs.randint(0, 3, rs.randint(1, 14)).astype(float) for _ in range(SORT_CASES)]


def _variant_bootstrap(X: np.ndarray, y: np.ndarray) -> mm.BaseModels:
    return mm.bootstrap(X, y, "relieff", n_bootstraps=2, n_features=5,
                        selector_params={"variant": "weka"}, random_state=0, fit_full=False)


@pytest.fixture(scope="module")
def weka(tmp_path_factory) -> dict:
    """WEKA's answer to every question of this module, keyed by question, from one JVM
    (``weka_batch.run``: each question on its own ARFF file and a new evaluator, as
    separate ``java`` runs)."""
    arff = Arffs(tmp_path_factory.mktemp("weka-relieff"))
    jobs: dict[tuple, Scores | Sort] = {}
    for case, data in CASES.items():
        X, y = data()
        for weighted in (False, True):
            jobs[case, weighted] = Scores(arff(X, y), "ReliefFAttributeEval",
                                          ("-W",) if weighted else ())
    X, y = _multiclass(3)
    jobs["sigma-and-k"] = Scores(arff(X, y), "ReliefFAttributeEval",
                                 ("-K", "5", "-W", "-A", "1"))
    idx = _variant_bootstrap(X, y).sample_indices[1]
    jobs["bootstrap"] = Scores(arff(X[idx], y[idx]), "ReliefFAttributeEval")
    for k, values in enumerate(_sort_cases()):
        jobs["sort", k] = Sort(tuple(values.tolist()))
    return dict(zip(jobs, run(list(jobs.values()))))


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("weighted", [False, True])
def test_relieff_weka_equals_weka(weka: dict, case: str, weighted: bool) -> None:
    X, y = CASES[case]()
    ours = relieff_weka_scores(X, y, weight_by_distance=weighted)
    weka = scores_of(weka[case, weighted], X.shape[1])
    assert _close(ours, weka)
    # Rankings equal up to ties at WEKA's printed precision.
    order = np.argsort(-ours, kind="stable")
    assert np.all(np.diff(weka[order]) <= 1e-12)


def test_relieff_weka_sigma_and_k(weka: dict) -> None:
    X, y = _multiclass(3)
    ours = relieff_weka_scores(X, y, n_neighbors=5, sigma=1.0)
    weka = scores_of(weka["sigma-and-k"], X.shape[1])
    assert _close(ours, weka)


def test_weka_sort_equals_weka_utils_sort(weka: dict) -> None:
    """The port of ``weka.core.Utils.sort`` orders tied values as the jar does."""
    cases = _sort_cases()
    assert len(cases) == SORT_CASES
    for k, values in enumerate(cases):
        assert order_of(weka["sort", k]) == _weka_sort(values.tolist())


def test_relieff_selector_variant_weka_equals_weka(weka: dict) -> None:
    """``get_selector("relieff", {"variant": "weka"})``: WEKA's default ReliefF, recorded
    in the selector params (so in the run settings), bootstraps included."""
    X, y = _multiclass(3)
    sel = mm.selectors.get_selector("relieff", {"variant": "weka"})
    assert sel.get_params() == {"n_neighbors": 10, "variant": "weka"}
    assert _close(sel.select(X, y, random_state=0).scores,
                  scores_of(weka["three-class", False], X.shape[1]))
    base = _variant_bootstrap(X, y)
    assert base.selector["params"]["variant"] == "weka"
    weka_b = scores_of(weka["bootstrap"], X.shape[1])
    assert np.abs(base.scores[1] - weka_b).max() <= 1e-6  # float32 scores
    with pytest.raises(ValueError, match="'variant' parameter of ReliefFSelector"):
        mm.selectors.get_selector("relieff", {"variant": "kononenko"})
