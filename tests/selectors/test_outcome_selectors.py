"""The regression and survival selectors against independent references on real data.

Each selector of ``modelmine/selectors/_outcome_selectors.py`` (and the vectorised Cox score
test of ``modelmine/outcomes/_cox.py``) is recomputed here another way: from scipy's
Pearson r, from sklearn's coordinate-descent lasso and elastic net, from real WEKA 3.6
(``ReliefFAttributeEval`` on a numeric class), from scikit-learn's and scikit-survival's
estimators fitted in the test, from scikit-survival's log-rank test, and from numerical
derivatives of the Breslow partial likelihood written naively. The data: the colon
microarray (a continuous target built from a few of its genes plus noise) and
scikit-survival's breast cancer data (its numeric columns), a slice of columns each.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.stats import pearsonr
from weka_batch import Scores, run, scores_of
from weka_oracle import requires_weka

import modelmine as mm
from modelmine.outcomes import cox_score_statistics
from modelmine.selectors import get_selector, rrelieff_scores

sksurv = pytest.importorskip("sksurv")

SEED = 7


# ---------------------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------------------


def _colon_regression(n: int = 62, p: int = 60, seed: int = 0
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Colon (first n samples, its first p distinct genes) and a continuous target: three
    genes plus noise. The colon data are discretised to -2/0/2 and some genes repeat
    (columns 38-41 are equal): the lasso of repeated columns is not unique, so they are
    kept once."""
    X, _ = mm.datasets.load_colon()
    X = np.asarray(X, dtype=np.float64)[:n]
    _, first = np.unique(X, axis=1, return_index=True)
    X = X[:, np.sort(first)[:p]]
    assert np.unique(X, axis=1).shape[1] == p and np.all(X.std(axis=0) > 0)
    z = (X - X.mean(axis=0)) / X.std(axis=0)
    rs = np.random.RandomState(seed)
    y = 1.0 * z[:, 0] + 0.6 * z[:, 3] - 0.8 * z[:, 7] + rs.randn(n)
    return X, y


def _breast_cancer(p: int = 30) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """scikit-survival's breast cancer data: numeric columns, event, time, the target."""
    from sksurv.datasets import load_breast_cancer

    Xdf, y = load_breast_cancer()
    X = Xdf.select_dtypes("number").to_numpy(dtype=np.float64)[:, :p]
    return X, np.asarray(y["e.tdm"], dtype=bool), np.asarray(y["t.tdm"], float), y


def _survival(event: np.ndarray, time: np.ndarray) -> np.ndarray:
    from sksurv.util import Surv

    return Surv.from_arrays(event, time)


def _standardise(X: np.ndarray) -> np.ndarray:
    sd = X.std(axis=0)
    return np.where(sd > 0, (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0), 0.0)


def _select(name: str, X: np.ndarray, y: np.ndarray, **params: object):
    return get_selector(name, dict(params)).select(X, y, random_state=SEED)


# ---------------------------------------------------------------------------------------
# 1. pearson
# ---------------------------------------------------------------------------------------


def test_pearson_is_the_f_of_scipy_pearson_r() -> None:
    X, y = _colon_regression(p=80)
    X = X.copy()
    X[:, 5] = 3.25  # a constant gene scores 0
    scores = _select("pearson", X, y).scores
    n = y.size
    ref = np.zeros(X.shape[1])
    for j in range(X.shape[1]):
        if j == 5:
            continue
        r = pearsonr(X[:, j], y).statistic
        ref[j] = r * r / (1 - r * r) * (n - 2)
    assert scores[5] == 0.0
    np.testing.assert_allclose(scores, ref, rtol=1e-10, atol=1e-12)
    assert ref.max() > 10  # the genes of the target stand out
    assert int(np.argmax(scores)) in (0, 3, 7)


# ---------------------------------------------------------------------------------------
# 2. lasso
# ---------------------------------------------------------------------------------------


def _cd_lasso_support(Z: np.ndarray, yc: np.ndarray, alpha: float) -> np.ndarray:
    from sklearn.linear_model import Lasso

    coef = Lasso(alpha=alpha, tol=1e-12, max_iter=200000).fit(Z, yc).coef_
    return np.flatnonzero(coef != 0)


def test_lasso_entry_order_equals_coordinate_descent_supports() -> None:
    X, y = _colon_regression(p=50)
    out = _select("lasso", X, y)
    Z, yc = _standardise(X), y - y.mean()
    order = np.argsort(out.ranking, kind="stable")
    s = out.scores[order]
    entered = int((s > 0).sum())
    assert entered >= 30
    assert np.all(np.diff(s[:entered]) <= 0)  # the ranking follows the entry penalties
    # the first entry penalty is where the lasso leaves 0: max |Z'y| / n
    np.testing.assert_allclose(s[0], np.abs(Z.T @ yc).max() / y.size, rtol=1e-10)
    # just above an entry penalty the feature is still out, just below it is in
    for m in range(1, 20):
        j = order[m - 1]
        assert j not in _cd_lasso_support(Z, yc, s[m - 1] * (1 + 1e-6)), m
        assert j in _cd_lasso_support(Z, yc, s[m - 1] * (1 - 1e-3)), m
    checked = 0
    for m in range(1, 20):
        if not (s[m - 1] > s[m] > 0):
            continue
        alpha = np.sqrt(s[m - 1] * s[m])  # strictly between the m-th and (m+1)-th entry
        support = _cd_lasso_support(Z, yc, alpha)
        assert sorted(support.tolist()) == sorted(order[:m].tolist()), m
        checked += 1
    assert checked >= 15


def test_lasso_fixed_alpha_is_the_lasso_support() -> None:
    from sklearn.linear_model import LassoLars

    X, y = _colon_regression(p=50)
    Z, yc = _standardise(X), y - y.mean()
    for alpha in (0.3, 0.1, 0.05):
        out = _select("lasso", X, y, alpha=alpha)
        expect = _cd_lasso_support(Z, yc, alpha)
        assert np.flatnonzero(out.support).tolist() == expect.tolist()
        # and the exact (LARS) solution at that penalty has the same support
        lars = LassoLars(alpha=alpha, fit_intercept=False).fit(Z, yc).coef_
        assert np.flatnonzero(lars).tolist() == expect.tolist()
        assert 1 <= expect.size < X.shape[1]


# ---------------------------------------------------------------------------------------
# 3. elastic net
# ---------------------------------------------------------------------------------------


def test_elastic_net_entry_penalties_equal_independent_fits() -> None:
    from sklearn.linear_model import ElasticNet

    X, y = _colon_regression(p=40)
    out = _select("elastic-net", X, y)
    Z, yc = _standardise(X), y - y.mean()
    n, l1 = y.size, 0.5
    # the grid of enet_path, written out: from the smallest penalty that keeps every
    # coefficient at 0 down to 1e-3 times it, 100 penalties evenly spaced in log
    a_max = np.abs(Z.T @ yc).max() / (n * l1)
    grid = np.logspace(np.log10(a_max), np.log10(a_max * 1e-3), 100)
    entry = np.full(X.shape[1], -1)
    for k, a in enumerate(grid):
        coef = ElasticNet(alpha=a, l1_ratio=l1, tol=1e-12, max_iter=200000).fit(Z, yc).coef_
        new = (coef != 0) & (entry < 0)
        entry[new] = k
    ref = np.where(entry >= 0, grid[np.maximum(entry, 0)], 0.0)
    np.testing.assert_allclose(out.scores, ref, rtol=1e-9)
    assert (entry >= 0).sum() >= 10
    # the first to enter has the largest |Z'y|; nothing is non-zero at a_max itself
    assert out.scores[np.argmax(np.abs(Z.T @ yc))] == out.scores.max()
    assert entry.min() >= 1


# ---------------------------------------------------------------------------------------
# 4. RReliefF against WEKA 3.6
# ---------------------------------------------------------------------------------------


def _numeric_class_arff(path: Path, X: np.ndarray, y: np.ndarray) -> Path:
    lines = ["@relation rrelieff"]
    lines += [f"@attribute f{j} numeric" for j in range(X.shape[1])]
    lines += ["@attribute class numeric", "@data"]
    lines += [",".join(repr(float(v)) for v in row) + "," + repr(float(t))
              for row, t in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")
    return path


RRELIEFF_OPTIONS = [
    ((), {}),
    (("-M", "-1", "-D", "1", "-K", "10"), {"n_neighbors": 10}),
    (("-W", "-A", "2"), {"weight_by_distance": True, "sigma": 2}),
    (("-K", "5", "-W", "-A", "3"), {"n_neighbors": 5, "weight_by_distance": True,
                                      "sigma": 3}),
]


def _repeated_targets() -> tuple[np.ndarray, np.ndarray]:
    """A target rounded to whole numbers (many dC = 0)."""
    X, y = _colon_regression(n=45, p=25, seed=3)
    return X, np.round(y)


def _sparse_options(weighted: bool) -> tuple[str, ...]:
    return ("-K", "15", *(("-W",) if weighted else ()))


@pytest.fixture(scope="module")
def weka_rrelieff(tmp_path_factory) -> dict:
    """WEKA's ``ReliefFAttributeEval`` on a numeric class (RReliefF) for every question of
    this module, keyed by its options, from one JVM (``tests/weka_batch.py``:
    each question on its own reading of the ARFF file and a new evaluator)."""
    folder = tmp_path_factory.mktemp("rrelieff")
    plain = _numeric_class_arff(folder / "numeric.arff", *_colon_regression(n=50, p=30))
    rounded = _numeric_class_arff(folder / "rounded.arff", *_repeated_targets())
    jobs = {("plain", options): Scores(plain, "ReliefFAttributeEval", options)
            for options, _ in RRELIEFF_OPTIONS}
    for weighted in (False, True):
        jobs["rounded", _sparse_options(weighted)] = Scores(
            rounded, "ReliefFAttributeEval", _sparse_options(weighted))
    return dict(zip(jobs, run(list(jobs.values()))))


@requires_weka
@pytest.mark.parametrize(("options", "params"), RRELIEFF_OPTIONS)
def test_rrelieff_equals_weka(weka_rrelieff: dict, options: tuple[str, ...],
                              params: dict[str, object]) -> None:
    X, y = _colon_regression(n=50, p=30)
    weka = scores_of(weka_rrelieff["plain", options], X.shape[1])
    ours = rrelieff_scores(X, y, **params)  # type: ignore[arg-type]
    assert np.abs(ours - weka).max() <= 1e-9
    assert np.abs(weka).max() > 1e-2  # real, non-trivial weights
    # the selector gives the same scores
    sel = _select("rrelieff", X, y, **params).scores
    np.testing.assert_array_equal(sel, ours)


@requires_weka
@pytest.mark.parametrize("weighted", [False, True])
def test_rrelieff_equals_weka_repeated_targets_sparse(weka_rrelieff: dict,
                                                      weighted: bool) -> None:
    """A target rounded to whole numbers (many dC = 0), more neighbours, sparse X."""
    X, yt = _repeated_targets()
    assert np.unique(yt).size < 12
    weka = scores_of(weka_rrelieff["rounded", _sparse_options(weighted)], X.shape[1])
    ours = rrelieff_scores(sp.csr_matrix(X), yt, n_neighbors=15,
                           weight_by_distance=weighted)
    assert np.abs(ours - weka).max() <= 1e-9
    assert np.abs(weka).max() > 1e-2


# ---------------------------------------------------------------------------------------
# 5. random forest (regression) and 6. SVR-RFE
# ---------------------------------------------------------------------------------------


def test_random_forest_regression_importances() -> None:
    from sklearn.ensemble import RandomForestRegressor

    X, y = _colon_regression(p=60)
    sel = get_selector("random-forest").for_outcome("regression")
    assert sel.outcome == "regression"
    ours = sel.select(X, y, random_state=SEED).scores
    ref = RandomForestRegressor(n_estimators=100, max_features="sqrt",
                                random_state=SEED).fit(X, y).feature_importances_
    np.testing.assert_allclose(ours, ref, rtol=1e-12, atol=1e-15)
    assert int(np.argmax(ref)) in (0, 3, 7)


def test_svr_rfe_steps_are_sklearn_rfe_of_a_linear_svr() -> None:
    """Grouped by elimination step, the ranking is scikit-learn's RFE(SVR(kernel="linear"))
    on the standardised data; within a step it is a total order."""
    from sklearn.feature_selection import RFE
    from sklearn.svm import SVR

    X, y = _colon_regression(p=40)
    ours = _select("svr-rfe", X, y).ranking
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    ref = RFE(SVR(kernel="linear"), n_features_to_select=1, step=0.1).fit(
        Z, (y - y.mean()) / y.std()).ranking_
    assert sorted(ours.tolist()) == list(range(1, 41))
    earlier = ref[:, None] < ref[None, :]
    assert np.all((ours[:, None] < ours[None, :])[earlier])
    assert ref.max() < 40  # RFE ties the features of a step: ours does not


def _raw_prostate(p: int) -> np.ndarray:
    X, _ = mm.datasets.load_prostate()
    return 10.0 ** np.asarray(X, dtype=np.float64)[:, :p]


def _planted_raw(X: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Five planted genes on raw intensities, R^2 = 0.7 (benchmarks/bench_regression_default)."""
    rng = np.random.default_rng(seed)
    S = rng.choice(X.shape[1], 5, replace=False)
    Z = X[:, S]
    signal = ((Z - Z.mean(0)) / Z.std(0)) @ rng.choice([-1.0, 1.0], size=5)
    return S, signal + np.sqrt(signal.var() * 0.3 / 0.7) * rng.normal(size=X.shape[0])


@pytest.mark.parametrize("name", ["svr-rfe", "lasso"])
def test_regression_rankings_do_not_depend_on_the_column_order(name: str) -> None:
    """Issue 39: on raw intensities svr-rfe's top 20 sat among the first columns and moved
    with them. Permuting the columns must permute the ranking and the scores exactly."""
    X = _raw_prostate(300)
    _, y = _planted_raw(X, 0)
    out = _select(name, X, y)
    for seed in (1, 2):
        perm = np.random.default_rng(seed).permutation(X.shape[1])
        moved = _select(name, X[:, perm], y)
        np.testing.assert_array_equal(moved.ranking, out.ranking[perm], err_msg=f"{seed}")
        if out.scores is not None:
            np.testing.assert_array_equal(moved.scores, out.scores[perm])
    assert sorted(out.ranking.tolist()) == list(range(1, 301))


def test_default_regression_selector_recovers_planted_genes_on_raw_intensities() -> None:
    """A slice of benchmarks/bench_regression_default.py (600 genes, 4 seeds): the default
    finds at least as many of the 5 planted genes in its top 20 as svr-rfe and as the
    svr-rfe before issue 39 (liblinear on [0, 1]-scaled intensities, ties by column)."""
    import warnings

    from sklearn.feature_selection import RFE
    from sklearn.svm import LinearSVR

    from modelmine.spec import DEFAULT_SELECTORS

    def top20(ranking: np.ndarray) -> set[int]:
        return set(np.argsort(ranking, kind="stable")[:20].tolist())

    X = _raw_prostate(600)
    M = (X - X.min(0)) / np.ptp(X, axis=0)
    found = {"default": 0, "svr-rfe": 0, "before": 0}
    for seed in range(4):
        S, y = _planted_raw(X, seed)
        found["default"] += len(top20(_select(DEFAULT_SELECTORS["regression"], X, y)
                                      .ranking) & set(S.tolist()))
        found["svr-rfe"] += len(top20(_select("svr-rfe", X, y).ranking) & set(S.tolist()))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            before = RFE(LinearSVR(C=1.0, epsilon=0.0, max_iter=10000, random_state=0,
                                   dual=True), n_features_to_select=1, step=0.1).fit(
                M, (y - y.mean()) / y.std()).ranking_
        found["before"] += len(top20(before) & set(S.tolist()))
    assert found["default"] >= max(found["svr-rfe"], found["before"]), found
    assert found["default"] >= 8, found  # of 20 planted genes in all


# ---------------------------------------------------------------------------------------
# 7. the Cox score test
# ---------------------------------------------------------------------------------------


def test_cox_score_of_binary_features_is_the_log_rank_statistic() -> None:
    from sksurv.compare import compare_survival

    X, event, time, _ = _breast_cancer(p=20)
    _, inverse, counts = np.unique(time, return_inverse=True, return_counts=True)
    untied = counts[inverse] == 1
    X, event, time = X[untied], event[untied], time[untied]
    assert np.unique(time).size == time.size and event.sum() > 20
    B = (np.median(X, axis=0) < X).astype(np.float64)
    ours = cox_score_statistics(B, event, time)
    y = _survival(event, time)
    ref = np.array([compare_survival(y, B[:, j])[0] for j in range(B.shape[1])])
    np.testing.assert_allclose(ours, ref, rtol=1e-9)
    assert ref.max() > 3
    # the selector, given scikit-survival's own target, gives the same
    np.testing.assert_allclose(_select("cox-score", B, y).scores, ours, rtol=1e-12)


def _breslow_loglik(beta: float, x: np.ndarray, event: np.ndarray, time: np.ndarray
                    ) -> float:
    """The Breslow log partial likelihood of one feature, one event at a time."""
    total = 0.0
    for i in range(x.size):
        if not event[i]:
            continue
        denom = 0.0
        for j in range(x.size):
            if time[j] >= time[i]:
                denom += np.exp(beta * x[j])
        total += beta * x[i] - np.log(denom)
    return total


def _score_test_by_differences(x: np.ndarray, event: np.ndarray, time: np.ndarray
                               ) -> float:
    """U^2 / I from central differences at 0 (Richardson-extrapolated)."""
    h = 1e-2 / x.std()

    def derivs(step: float) -> tuple[float, float]:
        lp, l0, lm = (_breslow_loglik(b, x, event, time) for b in (step, 0.0, -step))
        return (lp - lm) / (2 * step), (lp - 2 * l0 + lm) / (step * step)

    u1, d1 = derivs(h)
    u2, d2 = derivs(h / 2)
    U = (4 * u2 - u1) / 3
    info = -(4 * d2 - d1) / 3
    return U * U / info


@pytest.mark.parametrize("ties", ["as-given", "years"])
def test_cox_score_of_continuous_features_by_brute_force(ties: str) -> None:
    X, event, time, _ = _breast_cancer(p=30)
    rows = np.arange(0, time.size, 2)  # 99 samples keep the naive loops fast
    X, event, time = X[rows], event[rows], time[rows]
    if ties == "years":
        time = np.floor(time / 365.25)  # many tied times
        assert np.unique(time).size < time.size / 3
    cols = [0, 3, 7, 12, 21, 29]
    ours, _, info = cox_score_statistics(X[:, cols], event, time, return_parts=True)
    ref = np.array([_score_test_by_differences(X[:, j], event, time) for j in cols])
    np.testing.assert_allclose(ours, ref, rtol=1e-8)
    assert np.all(info > 0) and ref.max() > 1


# ---------------------------------------------------------------------------------------
# 8. coxnet and 9. boosted Cox
# ---------------------------------------------------------------------------------------


def test_coxnet_entry_order_equals_sksurv_path() -> None:
    from sksurv.linear_model import CoxnetSurvivalAnalysis

    X, event, time, y = _breast_cancer(p=40)
    out = _select("coxnet", X, y)
    model = CoxnetSurvivalAnalysis(l1_ratio=0.9, n_alphas=100, alpha_min_ratio=0.01)
    model.fit(_standardise(X), _survival(event, time))
    coef, alphas = np.asarray(model.coef_), np.asarray(model.alphas_)
    p = X.shape[1]
    first = []
    for j in range(p):
        nz = np.flatnonzero(coef[j] != 0)
        first.append((nz[0], -abs(coef[j, nz[0]]), j) if nz.size else (alphas.size, 0.0, j))
    order = [j for *_, j in sorted(first)]
    entered = [j for j in order if first[j][0] < alphas.size]
    assert np.argsort(out.ranking, kind="stable").tolist() == order
    assert np.flatnonzero(out.support).tolist() == sorted(entered)
    for j in entered:
        assert out.scores[j] == alphas[first[j][0]]
    assert len(entered) >= 5


def test_boosted_cox_first_picks_equal_sksurv_components() -> None:
    from sksurv.ensemble import ComponentwiseGradientBoostingSurvivalAnalysis

    X, event, time, y = _breast_cancer(p=40)
    out = _select("boosted-cox", X, y)
    model = ComponentwiseGradientBoostingSurvivalAnalysis(
        loss="coxph", n_estimators=250, learning_rate=0.1, random_state=SEED)
    model.fit(_standardise(X), _survival(event, time))
    # scikit-survival boosts on [1, X]: component 0 is the intercept, feature j is j + 1,
    # and coef_ holds the intercept first; the features with a coefficient are the picked
    picked: list[int] = []
    for est in model.estimators_:
        if est.component - 1 not in picked and est.component > 0:
            picked.append(int(est.component) - 1)
    assert np.argsort(out.ranking, kind="stable")[:len(picked)].tolist() == picked
    assert np.flatnonzero(out.support).tolist() == np.flatnonzero(model.coef_[1:]).tolist()
    assert 3 <= len(picked) < X.shape[1]


def test_boosted_cox_finds_a_planted_risk_gene() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6))
    y = _survival(np.ones(200, bool), rng.exponential(np.exp(-2 * X[:, 3])))
    out = _select("boosted-cox", X, y)
    assert int(np.argmin(out.ranking)) == 3


# ---------------------------------------------------------------------------------------
# 10. outcomes at the door of bootstrap
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "outcome"), [
    ("pearson", "regression"), ("lasso", "regression"), ("elastic-net", "regression"),
    ("rrelieff", "regression"), ("svr-rfe", "regression"), ("cox-score", "survival"),
    ("coxnet", "survival"), ("boosted-cox", "survival"),
])
def test_outcome_selectors_refuse_class_labels(name: str, outcome: str) -> None:
    X, labels = mm.datasets.load_colon()
    X = np.asarray(X, dtype=np.float64)[:, :20]
    with pytest.raises(ValueError, match="selector") as info:
        mm.bootstrap(X, labels, selector=name, outcome="classification", n_bootstraps=2,
                     n_features=5)
    assert f"outcome={outcome!r}" in str(info.value)


def test_svm_rfe_refused_for_survival() -> None:
    X, _, _, y = _breast_cancer(p=20)
    with pytest.raises(ValueError, match="selector") as info:
        mm.bootstrap(X, y, selector="svm-rfe", outcome="survival", n_bootstraps=2,
                     n_features=5)
    assert "svm-rfe" in str(info.value) and "outcome='survival'" in str(info.value)
    assert "cox-score" in str(info.value)  # the selectors that fit survival are named


def test_bootstrap_with_a_regression_selector() -> None:
    X, y = _colon_regression(p=30)
    base = mm.bootstrap(X, y, selector="pearson", outcome="regression", n_bootstraps=4,
                        n_features=5)
    assert base.selector["outcome"] == "regression"
    assert base.selector["name"] == "pearson"
    assert base.subsets.shape[0] == 4
    # each base model is pearson's top 5 on its resample (ties to the lower index)
    for i in range(4):
        rows = base.sample_indices[i]
        rows = rows[rows >= 0]
        f = _select("pearson", X[rows], y[rows]).scores
        top = np.sort(np.argsort(-f, kind="stable")[:5])
        assert np.flatnonzero(np.asarray(base.subsets[i])).tolist() == top.tolist()


@pytest.mark.parametrize(("resampling", "fraction"), [("bootstrap", None),
                                                      ("subsample", 0.5)])
def test_stratified_survival_keeps_the_event_proportion(resampling: str,
                                                        fraction: float | None) -> None:
    X, event, _, y = _breast_cancer(p=20)
    base = mm.bootstrap(X, y, selector="cox-score", outcome="survival", n_bootstraps=8,
                        n_features=5, stratify=True, resampling=resampling,
                        sample_fraction=fraction)
    assert base.selector["outcome"] == "survival"
    share = event.mean()
    for row in base.sample_indices:
        rows = row[row >= 0]
        assert abs(int(event[rows].sum()) - share * rows.size) <= 1
