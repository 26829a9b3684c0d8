"""The rankers of Pes (2019) and Salman (2022): gain ratio, OneR, mRMR, WEKA's ReliefF.

Independent truths:
- gain ratio: a per-feature ``scipy.stats.entropy`` / ``sklearn.metrics.mutual_info_score``
  loop on the same MDL codes (WEKA's ContingencyTables.gainRatio formula);
- OneR: a hand-worked example of WEKA 3.6's merging passes, invariants, and the JDK's
  ``java.util.Random`` sequence (WEKA itself in ``test_weka_information.py``);
- mRMR: Peng's own program through ``pymrmr`` (when it installs) and a plain greedy loop
  over ``sklearn.metrics.mutual_info_score``;
- ReliefF: a scalar translation of WEKA's ReliefFAttributeEval (``findKHitMiss``,
  ``updateWeightsDiscreteClass``, rank weights ``exp(-(j / sigma)^2)``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.stats import entropy
from sklearn.metrics import mutual_info_score

import modelmine as mm
from modelmine.selectors import (
    discretize,
    gain_ratio,
    mrmr,
    oner_rules,
    oner_scores,
    relieff_weka_scores,
)
from modelmine.selectors._relieff_weka import _weka_sort

SEED = 20190101


def sigma_discretize(X: np.ndarray) -> np.ndarray:
    """Peng et al.'s three states of an expression value (2005, Section 4.1): below the
    feature's mean minus its standard deviation (ddof 0), within, above mean plus sd."""
    values = np.asarray(X, dtype=np.float64)
    mu, sd = values.mean(axis=0), values.std(axis=0)
    return np.where(values < mu - sd, 0, np.where(values > mu + sd, 2, 1)).astype(np.int32)


def _codes(y: np.ndarray) -> np.ndarray:
    return np.unique(y, return_inverse=True)[1].astype(np.int64)


@pytest.fixture(scope="module")
def colon():
    X, y = mm.datasets.load_colon()
    return np.asarray(X, dtype=np.float64), _codes(np.asarray(y))


def _three_class(n: int = 48, p: int = 30) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(SEED)
    y = np.repeat([0, 1, 2], [20, 16, 12])[:n]
    X = rng.normal(size=(n, p)) + y[:, None] * rng.uniform(0, 1.5, p)
    X[:, 4] = 2.0  # a constant feature
    X[:, 7] = np.round(X[:, 7])  # many tied values
    return X, y


# ------------------------------------------------------------------------- gain ratio
def test_gain_ratio_equals_per_feature_formula(colon):
    X, y = colon
    X = X[:, :300]
    codes, _ = discretize(X, y)
    ours = gain_ratio(X, y)
    ref = np.zeros(X.shape[1])
    for j in range(X.shape[1]):
        split = entropy(np.bincount(codes[:, j]), base=2)
        if split > 1e-6:
            ref[j] = mutual_info_score(codes[:, j], y) / (split * math.log(2))
    np.testing.assert_allclose(ours, ref, rtol=1e-9, atol=1e-12)
    assert (ours > 0).sum() > 10  # the test sees informative features, not only zeros


def test_gainratio_selector_by_name(colon):
    X, y = colon
    base = mm.bootstrap(
        X[:, :200], y, "gainratio", n_bootstraps=2, n_features=5, random_state=0, fit_full=False
    )
    assert base.selector["name"] == "gainratio"
    assert base.scores is not None and base.scores.max() <= 1.0


# ------------------------------------------------------------------------------- OneR
# WEKA itself is the oracle of OneR's scores (tests/selectors/test_weka_information.py);
# here: a hand-worked example of WEKA 3.6's merging passes, and invariants.
def test_oner_hand_example():
    # Values 0..9 with classes 0 0 1 0 0 1 1 1 0 1, bucket size 2. Pass 1 (each value a
    # group): {0,1} -> [2,0]; 2 has majority 1 and the bucket's majority count is 2 -> a new
    # bucket; 3 (class 0): the bucket [0,1] has majority count 1 < 2 -> merged, [1,1],
    # majority 0 (first maximum); 4 (class 0) -> same majority, [2,1]; 5 (class 1) ->
    # new bucket; 6, 7 merge -> [0,3]; 8 (class 0) -> new bucket; 9: count 1 < 2 -> merged,
    # [1,1]. Buckets [2,0] | 1.5 | [2,1] | 4.5 | [0,3] | 7.5 | [1,1]; pass 2 merges the first
    # two (both class 0): x < 4.5 -> 0, x < 7.5 -> 1, else 0; 2 + 2 + 3 + 1 = 8 correct.
    x = np.arange(10, dtype=float)
    y = np.array([0, 0, 1, 0, 0, 1, 1, 1, 0, 1])
    rules = oner_rules(x[:, None], y, min_bucket_size=2)
    assert rules.n_buckets[0] == 3
    np.testing.assert_array_equal(rules.breakpoints[0], [4.5, 7.5])
    np.testing.assert_array_equal(rules.classes[0], [0, 1, 0])
    assert rules.n_correct[0] == 8
    np.testing.assert_array_equal(rules.predict(np.array([[4.4], [4.5], [7.49], [9.0]]))[:, 0],
                                  [0, 1, 1, 0])
    assert oner_scores(x[:, None], y, min_bucket_size=2, folds=None)[0] == 80.0


def test_oner_rules_ignore_the_order_of_records_and_of_tied_values(colon):
    # WEKA 3.6 groups records by value before bucketing: any permutation gives the same
    # rules; the training accuracy equals the predictions' agreement with the labels.
    X, y = _three_class()
    X[:, 3] = np.round(X[:, 3] * 2)
    perm = np.random.default_rng(SEED).permutation(X.shape[0])
    a, b = oner_rules(X, y), oner_rules(X[perm], y[perm])
    np.testing.assert_array_equal(a.breakpoints, b.breakpoints)
    np.testing.assert_array_equal(a.classes, b.classes)
    np.testing.assert_array_equal(a.n_correct, (a.predict(X) == y[:, None]).sum(axis=0))


def test_weka_cv_folds_partition_and_stratify():
    from modelmine.selectors._rankers import weka_cv_folds

    y = np.repeat([0, 1, 2], [30, 17, 9])
    folds = weka_cv_folds(y, 10, 1)
    rows = np.concatenate(folds)
    np.testing.assert_array_equal(np.sort(rows), np.arange(y.size))
    assert [f.size for f in folds] == [6] * 6 + [5] * 4
    for f in folds:  # dealt in turn from the records grouped by class
        assert np.all(np.abs(np.bincount(y[f], minlength=3) - np.bincount(y) / 10) < 1 + 1e-9)


def test_java_random_equals_the_jdk_sequence():
    # printed by OpenJDK 17: new java.util.Random(42), nextInt(10) five times, then a new
    # Random(42), nextInt(16) three times (the power-of-two branch); Random(-7), nextInt of
    # a large bound (the rejection loop's range)
    from modelmine.selectors._rankers import JavaRandom

    r = JavaRandom(42)
    assert [r.next_int(10) for _ in range(5)] == [0, 3, 8, 4, 0]
    r = JavaRandom(42)
    assert [r.next_int(16) for _ in range(3)] == [11, 0, 10]
    r = JavaRandom(-7)
    assert [r.next_int(1000003) for _ in range(3)] == [932931, 945492, 641255]


def test_oner_sparse_equals_dense(colon):
    X, y = colon[0][:, :60], colon[1]
    X = np.where(np.median(X) < X, X, 0.0)
    np.testing.assert_array_equal(
        oner_scores(sp.csr_matrix(X), y, random_state=1), oner_scores(X, y, random_state=1)
    )


# ------------------------------------------------------------------------------- mRMR
def _greedy_mrmr(codes: np.ndarray, y: np.ndarray, criterion: str, n_sel: int) -> list[int]:
    p = codes.shape[1]
    rel = np.array([mutual_info_score(codes[:, j], y) for j in range(p)])
    pool = list(np.lexsort((np.arange(p), -rel)))
    mi = {}
    chosen = [pool[0]]
    while len(chosen) < n_sel:
        best, best_val = None, -np.inf
        for j in pool:
            if j in chosen:
                continue
            for s in chosen:
                if (j, s) not in mi:
                    mi[j, s] = mutual_info_score(codes[:, j], codes[:, s])
            red = np.mean([mi[j, s] for s in chosen])
            val = rel[j] - red if criterion == "MID" else rel[j] / (red + 1e-4)
            if val > best_val + 1e-12:
                best, best_val = j, val
        chosen.append(best)
    return chosen


@pytest.mark.parametrize("criterion", ["MID", "MIQ"])
def test_mrmr_equals_plain_greedy_loop(criterion, colon):
    X, y = colon[0][:, :50], colon[1]
    res = mrmr(X, y, criterion=criterion, n_selected=10)
    ref = _greedy_mrmr(sigma_discretize(X), y, criterion, 10)
    assert list(res.order[:10]) == ref
    # The rest by decreasing relevance; the ranking is a permutation.
    rest = res.order[10:]
    assert np.all(np.diff(res.relevance[rest]) <= 1e-15)
    assert sorted(res.ranking) == list(range(1, 51))


@pytest.mark.parametrize("criterion", ["MID", "MIQ"])
def test_mrmr_equals_pengs_program(criterion, colon, capfd):
    pymrmr = pytest.importorskip("pymrmr")
    X, y = colon[0][:, :60], colon[1]
    codes = sigma_discretize(X)
    names = [f"f{j}" for j in range(X.shape[1])]
    df = pd.DataFrame(np.column_stack([y, codes]), columns=["class", *names])
    theirs = pymrmr.mRMR(df, criterion, 12)
    capfd.readouterr()  # Peng's program prints its tables
    ours = mrmr(X, y, criterion=criterion, n_selected=12).order[:12]
    assert [names[j] for j in ours] == list(theirs)


def test_mrmr_selector_gives_linear_rank_scores(colon):
    X, y = colon
    base = mm.bootstrap(
        X[:, :100],
        y,
        "mrmr",
        n_bootstraps=2,
        n_features=5,
        selector_params={"n_selected": 10},
        random_state=0,
        fit_full=False,
    )
    r = base.ranks[0]
    np.testing.assert_allclose(base.scores[0], 1 - (r - 1) / 100, rtol=1e-6)


# ---------------------------------------------------------------------------- ReliefF
def _weka_relieff(
    X: np.ndarray, y: np.ndarray, k: int, weighted: bool, sigma: float = 2.0
) -> np.ndarray:
    """WEKA's ReliefFAttributeEval (nominal class, all records), scalar."""
    n, p = X.shape
    K = int(y.max()) + 1
    mn, mx = X.min(axis=0), X.max(axis=0)

    def norm(v, a):
        return 0.0 if mx[a] == mn[a] else (v - mn[a]) / (mx[a] - mn[a])

    def diff(a, v1, v2):
        return abs(norm(v1, a) - norm(v2, a))

    def dist(i, j):
        return sum(diff(a, X[i, a], X[j, a]) for a in range(p))

    probs = np.bincount(y, minlength=K) / n
    w_rank = [math.exp(-((i / sigma) * (i / sigma))) for i in range(k)]
    weights = np.zeros(p)
    for z in range(n):
        karray = [[] for _ in range(K)]  # [distance, index]
        for i in range(n):
            if i == z:
                continue
            d = dist(i, z)
            cl = y[i]
            if len(karray[cl]) < k:
                karray[cl].append([d, i])
            else:
                worst = max(range(k), key=lambda t: (karray[cl][t][0], -t))
                if d < karray[cl][worst][0]:
                    karray[cl][worst] = [d, i]
        cl = y[z]
        w_norm = 1.0 - probs[cl] if K > 2 else 1.0
        for c in range(K):
            # WEKA ranks the kept neighbours with Utils.sort, a quicksort (not stable on
            # ties); the port is checked against the jar in test_weka_relieff.py.
            order = _weka_sort([t[0] for t in karray[c]])
            nb = [karray[c][o] for o in order] if weighted else karray[c]
            total = sum(w_rank[: len(nb)])
            for j, (_, idx) in enumerate(nb):
                f = w_rank[j] / total if weighted else 1.0 / len(nb)
                for a in range(p):
                    t = diff(a, X[z, a], X[idx, a]) * f
                    if c == cl:
                        weights[a] -= t
                    elif K > 2:
                        weights[a] += probs[c] / w_norm * t
                    else:
                        weights[a] += t
    return weights / n


@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("case", ["colon", "three-class"])
def test_relieff_weka_equals_scalar_translation(weighted, case, colon):
    if case == "colon":
        X, y = colon[0][:, :25], colon[1]
    else:
        X, y = _three_class(p=12)
    ours = relieff_weka_scores(X, y, n_neighbors=10, weight_by_distance=weighted)
    np.testing.assert_allclose(ours, _weka_relieff(X, y, 10, weighted), rtol=1e-9, atol=1e-12)


def test_relieff_weight_by_distance_through_selector_params(colon):
    X, y = colon[0][:, :100], colon[1]
    base = mm.bootstrap(
        X,
        y,
        "relieff",
        n_bootstraps=2,
        n_features=5,
        selector_params={"weight_by_distance": True},
        random_state=0,
        fit_full=False,
    )
    assert base.selector["params"]["weight_by_distance"] is True
    idx = base.sample_indices[0]
    expected = relieff_weka_scores(X[idx], y[idx])
    np.testing.assert_allclose(base.scores[0], expected.astype(np.float32), rtol=1e-6)
    with pytest.raises(ValueError, match="'weight_by_distance' parameter"):
        mm.selectors.get_selector("relieff", {"weight_by_distance": "yes"})


# ------------------------------------------------------------------------- SVM-RFE 50%
def test_svm_rfe50_equals_svm_rfe_with_half_step(colon):
    X, y = colon[0][:, :150], colon[1]
    a = mm.selectors.get_selector("svm-rfe50").select(X, y, random_state=0)
    b = mm.selectors.get_selector("svm-rfe", {"step": 0.5}).select(X, y, random_state=0)
    np.testing.assert_array_equal(a.ranking, b.ranking)
    c = mm.selectors.get_selector("svm-rfe").select(X, y, random_state=0)
    assert not np.array_equal(a.ranking, c.ranking)
