"""The selector interface: ranks, ties, subsets, wrappers and the built-in registry."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from sklearn.ensemble import ExtraTreesClassifier
from sklearn.feature_selection import RFE, SelectKBest, f_classif
from sklearn.svm import SVC, LinearSVC

from modelmine.selectors import (
    CallableSelector,
    EstimatorSelector,
    SelectorOutput,
    available_selectors,
    chi2_contingency_scores,
    get_selector,
    model_from_output,
    ranks_from_scores,
)


def test_ranks_from_scores_breaks_ties_by_feature_index():
    scores = np.array([0.5, 2.0, 0.5, 2.0, -1.0])
    # 2.0 at indices 1 and 3 -> ranks 1, 2; 0.5 at 0 and 2 -> ranks 3, 4; -1 last.
    np.testing.assert_array_equal(ranks_from_scores(scores), [3, 1, 4, 2, 5])


def test_ranks_are_a_permutation_matching_scipy_ordinal_ranking(rng):
    scores = rng.integers(0, 5, size=200).astype(float)  # many ties
    ranks = ranks_from_scores(scores)
    # scipy's 'ordinal' ranking of -scores breaks ties by order of appearance: same rule.
    np.testing.assert_array_equal(ranks, scipy.stats.rankdata(-scores, method="ordinal"))


def test_subset_is_top_m_of_ranking():
    model = model_from_output(SelectorOutput(scores=np.array([3.0, 1.0, 2.0, 5.0])),
                              n_features_in=4, n_features=2, selector="t")
    np.testing.assert_array_equal(model.subset, [True, False, False, True])


def test_tied_ranking_broken_by_score_then_index():
    # sklearn RFE style ranking: several features share rank 2.
    out = SelectorOutput(ranking=np.array([2, 1, 2, 3, 2]),
                         scores=np.array([0.1, 0.0, 0.3, 0.0, 0.3]))
    model = model_from_output(out, n_features_in=5, n_features=3, selector="t")
    np.testing.assert_array_equal(model.ranks, [4, 1, 2, 5, 3])
    np.testing.assert_array_equal(model.subset, [False, True, True, False, True])


def test_subset_selector_keeps_own_subset_and_caps_it():
    out = SelectorOutput(scores=np.array([0.0, 0.9, 0.2, 0.5, 0.0]),
                         support=np.array([False, True, True, True, False]))
    capped = model_from_output(out, n_features_in=5, n_features=2, selector="t")
    np.testing.assert_array_equal(capped.subset, [False, True, False, True, False])
    kept = model_from_output(out, n_features_in=5, n_features=None, selector="t")
    assert kept.subset.sum() == 3
    larger_cap = model_from_output(out, n_features_in=5, n_features=4, selector="t")
    assert larger_cap.subset.sum() == 3  # m is a cap, never a fill


@pytest.mark.parametrize("out, match", [
    (SelectorOutput(scores=np.ones(3)), r"scores of shape \(3,\); expected \(4,\)"),
    (SelectorOutput(scores=np.array([1.0, np.nan, 0.0, 1.0])), "non-finite score"),
    (SelectorOutput(ranking=np.array([1.0, 2.0, 3.0, 4.0])), "expected integers"),
    (SelectorOutput(support=np.ones(5, bool)), "support mask of shape"),
    (SelectorOutput(), "neither scores, ranking nor support"),
])
def test_bad_selector_output_names_the_selector(out, match):
    with pytest.raises(ValueError, match=f"Selector 'mysel'.*{match}|{match}"):
        model_from_output(out, n_features_in=4, n_features=2, selector="mysel")


def test_estimator_wrappers(colon):
    X, y, _ = colon
    codes = (y > 0).astype(int)
    svc = EstimatorSelector(LinearSVC(C=0.5, dual="auto", max_iter=5000))
    out = svc.select(X, codes, random_state=0)
    ref = np.abs(LinearSVC(C=0.5, dual="auto", max_iter=5000, random_state=0)
                 .fit(X, codes).coef_).ravel()
    np.testing.assert_allclose(out.scores, ref)

    trees = EstimatorSelector(ExtraTreesClassifier(n_estimators=10))
    a = trees.select(X, codes, random_state=3).scores
    b = trees.select(X, codes, random_state=3).scores
    np.testing.assert_array_equal(a, b)  # the bootstrap's seed reaches the estimator
    assert not np.array_equal(a, trees.select(X, codes, random_state=4).scores)

    rfe = EstimatorSelector(RFE(SVC(kernel="linear", C=0.5), n_features_to_select=50, step=0.2))
    assert rfe.kind == "ranking"
    ranking = rfe.select(X, codes, random_state=0).ranking
    ref_rfe = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=50, step=0.2).fit(X, codes)
    np.testing.assert_array_equal(ranking, ref_rfe.ranking_)

    kbest = EstimatorSelector(SelectKBest(f_classif, k=7))
    assert kbest.kind == "subset"
    assert kbest.select(X, codes, random_state=0).support.sum() == 7


def test_callable_selector_with_and_without_seed(colon):
    X, y, _ = colon
    codes = (y > 0).astype(int)
    plain = CallableSelector(f_classif)  # returns (F, p): the scores are taken
    np.testing.assert_allclose(plain.select(X, codes, random_state=0).scores,
                               f_classif(X, codes)[0])

    def noisy(X, y, random_state):
        return np.random.default_rng(random_state).random(X.shape[1])

    seeded = CallableSelector(noisy)
    np.testing.assert_array_equal(seeded.select(X, codes, random_state=5).scores,
                                  np.random.default_rng(5).random(X.shape[1]))


def test_get_selector_resolves_and_refuses():
    assert set(available_selectors()["name"]) >= {
        "chi2", "anova", "ig", "su", "relieff", "svm-rfe", "svm", "l1-logistic", "random-forest"}
    assert get_selector("relieff", {"n_neighbors": 5}).n_neighbors == 5
    with pytest.raises(ValueError, match=r"'selector' parameter of bootstrap must be one of "
                                         r"'chi2'.*Got 'svmrfe' instead. Did you mean 'svm-rfe'"):
        get_selector("svmrfe")
    with pytest.raises(TypeError, match="'selector' parameter"):
        get_selector(42)
    with pytest.raises(ValueError, match="'selector_params' parameter"):
        get_selector("relieff", {"k": 3})
    with pytest.raises(ValueError, match="'n_neighbors' parameter of ReliefFSelector"):
        get_selector("relieff", {"n_neighbors": 0})


def test_chi2_contingency_equals_scipy_per_feature(rng):
    n, p = 60, 25
    codes = rng.integers(0, 4, size=(n, p))
    codes[:, 3] = 0  # a single-level feature scores 0
    y = rng.integers(0, 3, size=n)
    scores = chi2_contingency_scores(codes, np.full(p, 4), y)
    for j in range(p):
        table = np.array([[np.sum((codes[:, j] == lv) & (y == c)) for c in range(3)]
                          for lv in range(4)])
        table = table[table.sum(axis=1) > 0]
        expected = 0.0 if table.shape[0] < 2 else scipy.stats.chi2_contingency(
            table, correction=False)[0]
        assert scores[j] == pytest.approx(expected, rel=1e-12, abs=1e-12)


# --------------------------------------------------------------- prepare / select_rows
# Every built-in selector, the rankers of Pes (2019) and Salman (2022) included, and the
# parameter variants that change the route (WEKA's distance-weighted ReliefF, MDL-free
# discretisations that skip the shared sort).
def _classifying(names):
    from modelmine.selectors import selectors_for

    fits = set(selectors_for("classification"))
    return [n for n in names if n in fits]


_ROUTES = [(name, None) for name in _classifying(
    available_selectors().query("origin == 'built-in'")["name"])] + [
    ("relieff", {"weight_by_distance": True}),
    ("ig", {"discretization": "quantile"}),
    ("gainratio", {"discretization": "quantile"}),
    ("oner", {"folds": None}),
    ("mrmr", {"criterion": "MIQ", "n_selected": 10}),
]


def _same_output(a: SelectorOutput, b: SelectorOutput) -> None:
    for field in ("scores", "ranking", "support"):
        x, y = getattr(a, field), getattr(b, field)
        assert (x is None) == (y is None), field
        if x is not None:
            np.testing.assert_array_equal(np.asarray(x), np.asarray(y), err_msg=field)


def _informative(colon, p):
    """The p colon genes of highest ANOVA F (so that every selector, CFS included, finds
    structure in any resample), and the binary labels."""
    X, y, _ = colon
    X = np.asarray(X)
    codes = (np.asarray(y) > 0).astype(int)
    keep = np.sort(np.argsort(-f_classif(X, codes)[0], kind="stable")[:p])
    return X[:, keep], codes


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize("name, params", _ROUTES,
                         ids=[f"{n}-{p}" if p else n for n, p in _ROUTES])
def test_select_rows_equals_select_on_the_resample(name, params, sparse, colon):
    """The speed path of bootstrap (Selector.prepare once per chunk, then select_rows per
    resample) gives exactly what select on X[rows] gives, rows repeated or not."""
    import scipy.sparse as sps

    X, codes = _informative(colon, 40)
    if sparse:
        X = sps.csr_matrix(np.where(np.abs(X) < np.median(np.abs(X)), 0.0, X))
    sel = get_selector(name, params)
    prepared = sel.prepare(X, codes)
    draw = np.random.default_rng(0)
    n = codes.size
    for seed, rows in enumerate([np.sort(draw.choice(n, n, replace=True)),
                                 np.sort(draw.choice(n, int(0.8 * n), replace=False))]):
        _same_output(sel.select_rows(prepared, X, codes, rows, random_state=seed),
                     sel.select(X[rows], codes[rows], random_state=seed))


@pytest.mark.parametrize("name", ["gainratio", "oner", "mrmr", "svm-rfe50"])
def test_bootstrap_of_new_selectors_equals_select_on_each_resample(name, colon):
    """mm.bootstrap (prepare / select_rows in _fit_chunk) against a plain loop of select on
    X[idx] with the same resamples and selector seeds."""
    import modelmine as mm
    from modelmine.base_models import resample_indices, seed_sequence

    X, codes = _informative(colon, 40)
    params = {"n_selected": 10} if name == "mrmr" else None
    base = mm.bootstrap(X, codes, name, n_bootstraps=3, n_features=6, random_state=11,
                        selector_params=params, fit_full=False)
    sel = get_selector(name, params)
    for i, child in enumerate(seed_sequence(11).spawn(4)[:3]):
        draw = np.random.default_rng(child)
        idx = resample_indices(codes, draw, method="bootstrap", fraction=1.0, stratify=False)
        seed = int(draw.integers(0, 2**31 - 1))
        model = model_from_output(sel.select(X[idx], codes[idx], random_state=seed),
                                  n_features_in=40, n_features=6, selector=name)
        np.testing.assert_array_equal(base.sample_indices[i], idx)
        np.testing.assert_array_equal(base.ranks[i], model.ranks)
        np.testing.assert_array_equal(base.subsets[i], model.subset)


@pytest.mark.parametrize("name", [n for n, _ in _ROUTES[:-5]])
def test_supports_multiclass_is_honest(name, colon):
    """A selector that claims multiclass support fits three classes through bootstrap; one
    that does not is refused before the first fit, naming y."""
    import modelmine as mm

    X, codes = _informative(colon, 30)
    # Three classes with structure: the positive class split by its best gene.
    pos = np.flatnonzero(codes == 1)
    three = codes.copy()
    three[pos[np.argsort(X[pos, 0], kind="stable")[pos.size // 2:]]] = 2
    sel = get_selector(name)
    kw = dict(n_bootstraps=2, n_features=5, random_state=0, fit_full=False)
    if name == "mrmr":
        kw["selector_params"] = {"n_selected": 8}
    if sel.supports_multiclass:
        base = mm.bootstrap(X, three, name, **kw)
        assert base.shape == (2, 30) and list(base.classes) == [0, 1, 2]
    else:
        with pytest.raises(ValueError, match="'y' parameter of bootstrap must be binary"):
            mm.bootstrap(X, three, name, **kw)


def _registered_selectors():
    from modelmine.selectors import available_selectors

    return _classifying(available_selectors()["name"])


def _outcome_routes():
    from modelmine.selectors import selectors_for

    return [(o, n) for o in ("regression", "survival") for n in selectors_for(o)]


def _outcome_target(outcome, X):
    from modelmine.outcomes import SURVIVAL_DTYPE

    rng = np.random.default_rng(1)
    signal = X[:, 0] - X[:, 1] + rng.normal(size=X.shape[0])
    if outcome == "regression":
        return signal
    y = np.empty(X.shape[0], dtype=SURVIVAL_DTYPE)
    y["time"] = rng.exponential(1.0, X.shape[0]) * np.exp(-signal / 2)
    y["event"] = rng.random(X.shape[0]) < 0.7
    return y


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize(("outcome", "name"), _outcome_routes(),
                         ids=[n for _, n in _outcome_routes()])
def test_outcome_selectors_select_rows_equals_select(outcome, name, sparse, colon):
    """issue 27: the selectors of continuous and survival outcomes keep the bootstrap's
    contract (select_rows on a resample equals select on its rows), on dense and sparse
    X, and take array-likes and a pandas target at the door with the same result."""
    import pandas as pd
    import scipy.sparse as sps

    X, _ = _informative(colon, 30)
    y = _outcome_target(outcome, X)
    if sparse:
        X = sps.csr_matrix(np.where(np.abs(X) < np.median(np.abs(X)), 0.0, X))
    sel = get_selector(name).for_outcome(outcome)
    prepared = sel.prepare(X, y)
    rows = np.sort(np.random.default_rng(0).choice(y.size, y.size, replace=True))
    _same_output(sel.select_rows(prepared, X, y, rows, random_state=2),
                 sel.select(X[rows], y[rows], random_state=2))
    if not sparse:  # the container changes the memory layout: equal to rounding
        truth = sel.select(X, y, random_state=2)
        others = [sel.select(pd.DataFrame(X), y, random_state=2)]
        if outcome == "regression":
            others.append(sel.select(X.tolist(), pd.Series(y), random_state=2))
        for other in others:
            for field in ("scores", "ranking", "support"):
                a, b = getattr(other, field), getattr(truth, field)
                assert (a is None) == (b is None)
                if a is not None:
                    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float),
                                               rtol=1e-12, atol=1e-12)
        with pytest.raises(ValueError, match=r"'y' parameter of \w+\.select must be"):
            sel.select(X, np.array(["a", "b"] * (y.size // 2)), random_state=0)


@pytest.mark.parametrize("name", _registered_selectors())
def test_every_selector_takes_any_labels_and_array_likes(name, colon):
    """issue 23: a public selector called directly takes the labels a user has (-1/1,
    strings, floats that are classes) and any array-like X; relabelling the classes or
    changing the container never changes the result (an invariant against the 0..K-1
    codes on a float64 ndarray)."""
    import pandas as pd

    X, y, _ = colon
    X = np.ascontiguousarray(X[:, :200], dtype=np.float64)
    codes = (y == y.max()).astype(int)
    sel = get_selector(name)

    def ranks(Xv, yv):
        out = sel.select(Xv, yv, random_state=3)
        return model_from_output(out, n_features_in=200, n_features=5, selector=name).ranks

    truth = ranks(X, codes)
    for labels in (np.where(codes, 1, -1), np.where(codes, "tumour", "normal"),
                   np.where(codes, 5.0, 2.0), list(np.where(codes, "b", "a")),
                   pd.Series(np.where(codes, 1, -1))):
        assert np.array_equal(ranks(X, labels), truth), labels[:3]
    assert np.array_equal(ranks(X.tolist(), codes), truth)
    assert np.array_equal(ranks(pd.DataFrame(X), codes), truth)
    if sel.supports_multiclass:
        three = codes * 2
        three[::5] = 1

        def outcome(labels):
            try:
                return ranks(X, labels).tolist()
            except ValueError as exc:  # the same refusal, whatever the spelling
                return str(exc)

        assert outcome(np.array(["a", "b", "c"])[three]) == outcome(three)
    with pytest.raises(ValueError, match=r"'y' parameter of \w+\.select must be class "
                                         r"labels \(a continuous target"):
        sel.select(X, np.linspace(0, 1, y.size), random_state=0)
