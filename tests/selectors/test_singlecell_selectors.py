"""The sparse single-cell selectors "wilcoxon", "t-test" and "logreg" (issue 29, item 2):
their statistics against scanpy's rank_genes_groups and scipy on scanpy's bundled
pbmc68k_reduced and on simulated negative-binomial counts, the resamples (repeated rows)
and the per-class panels against the plain fit, the conventions where a statistic is
undefined, and the sparse path never densifying the matrix."""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats
from sklearn.linear_model import LogisticRegression

from modelmine.selectors import (
    LogRegSelector,
    WelchTSelector,
    WilcoxonSelector,
    welch_t_pairwise,
    wilcoxon_auroc_pairwise,
)
from modelmine.selectors._singlecell import SEPARATED_SCORE, rank_entries, welch_t, wilcoxon_z

sc = pytest.importorskip("scanpy")


def nb_counts(n: int = 2000, p: int = 500, n_clusters: int = 4, density: float = 0.05,
              seed: int = 0) -> tuple[sp.csr_matrix, np.ndarray]:
    """Negative-binomial counts, about ``density`` non-zero, with 5 planted markers per
    cluster (genes 5k..5k+4 expressed in 60 % of cluster k's cells, at a higher mean)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_clusters, n)
    size = int(density * n * p)
    rows = rng.integers(0, n, size)
    cols = rng.integers(0, p, size)
    vals = rng.negative_binomial(2, 0.5, size) + 1.0
    mr, mc, mv = [], [], []
    for k in range(n_clusters):
        cells = np.flatnonzero(y == k)
        for g in range(5 * k, 5 * k + 5):
            on = cells[rng.random(cells.size) < 0.6]
            mr.append(on)
            mc.append(np.full(on.size, g))
            mv.append(rng.negative_binomial(5, 0.3, on.size) + 1.0)
    X = sp.coo_matrix((np.concatenate([vals, *mv]),
                       (np.concatenate([rows, *mr]), np.concatenate([cols, *mc]))),
                      shape=(n, p)).tocsr()
    X.sum_duplicates()
    return X, y


@pytest.fixture(scope="module")
def pbmc():
    """scanpy's 700 PBMCs: log-normalised counts (its .raw) as CSR, louvain clusters."""
    adata = sc.datasets.pbmc68k_reduced()
    raw = adata.raw.to_adata()
    raw.X = sp.csr_matrix(raw.X, dtype=np.float64)
    scaled = adata.copy()  # scaled values: dense, with negative values
    scaled.X = np.asarray(scaled.X, dtype=np.float64)
    return raw, scaled


@pytest.fixture(scope="module")
def counts():
    X, y = nb_counts()
    adata = sc.AnnData(X)
    adata.obs["cluster"] = np.char.add("c", y.astype(str))
    adata.obs["cluster"] = adata.obs["cluster"].astype("category")
    return adata, X, y


#: scanpy's scores of the module's fixtures, computed once: (id, groupby, method) ->
#: (the AnnData, its read-only scores).
_SCANPY: dict[tuple[int, str, str], tuple[object, np.ndarray]] = {}


def scanpy_scores(adata, groupby: str, method: str) -> np.ndarray:
    """scanpy's rank_genes_groups scores, one row per group (in category order), one
    column per gene (in the matrix's order); computed once per AnnData, groupby and
    method (the fixtures' AnnData are module-scoped and never changed), read-only."""
    key = (id(adata), groupby, method)
    if key not in _SCANPY or _SCANPY[key][0] is not adata:
        out = _scanpy_scores(adata, groupby, method)
        out.flags.writeable = False
        _SCANPY[key] = (adata, out)
    return _SCANPY[key][1]


def _scanpy_scores(adata, groupby: str, method: str) -> np.ndarray:
    ref = adata.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sc.tl.rank_genes_groups(ref, groupby, method=method, tie_correct=True,
                                n_genes=ref.n_vars, use_raw=False)
    res = ref.uns["rank_genes_groups"]
    col = {g: j for j, g in enumerate(ref.var_names)}
    groups = list(ref.obs[groupby].cat.categories)
    out = np.zeros((len(groups), ref.n_vars))
    for c, g in enumerate(groups):
        idx = [col[name] for name in res["names"][g]]
        out[c, idx] = np.asarray(res["scores"][g], dtype=np.float64)
    return out


def codes_of(adata, groupby: str) -> np.ndarray:
    return adata.obs[groupby].cat.codes.to_numpy().astype(np.int64)


def assert_close_to_scanpy(ours: np.ndarray, ref: np.ndarray) -> None:
    # scanpy stores its scores as float32: relative error up to 6e-8
    np.testing.assert_allclose(ours, np.abs(ref), rtol=1e-6, atol=1e-6)


# ---------------------------------------------------------------------------------------
# Wilcoxon
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["raw", "scaled"])
def test_wilcoxon_equals_scanpy_on_pbmc(pbmc, which):
    adata = pbmc[0] if which == "raw" else pbmc[1]  # sparse >= 0 / dense with negatives
    ref = scanpy_scores(adata, "louvain", "wilcoxon")
    y = codes_of(adata, "louvain")
    sel = WilcoxonSelector()
    X = adata.X
    for c in range(ref.shape[0]):
        ours = sel.select(X, (y == c).astype(int), random_state=0).scores
        assert_close_to_scanpy(ours, ref[c])
    # all clusters at once (the per-class panels) on the whole data
    outs = sel.select_rows_one_vs_rest([sel.prepare(X, y)] * ref.shape[0], X, y,
                                       np.arange(X.shape[0]), tuple(range(ref.shape[0])),
                                       random_state=0)
    assert_close_to_scanpy(np.stack([o.scores for o in outs]), ref)
    assert np.abs(ref).max() > 10  # real markers: the comparison is not of zeros


def test_wilcoxon_equals_scanpy_on_negative_binomial_counts(counts):
    adata, X, y = counts
    ref = scanpy_scores(adata, "cluster", "wilcoxon")
    z = wilcoxon_z(rank_entries(X), y, np.arange(4))
    assert_close_to_scanpy(np.abs(z), ref)
    np.testing.assert_array_equal(np.sign(z[np.abs(ref) > 1e-3]),
                                  np.sign(ref[np.abs(ref) > 1e-3]))
    # the planted markers are each cluster's top 5
    for k in range(4):
        scores = WilcoxonSelector().select(X, (y == k).astype(int), random_state=0).scores
        assert set(np.argsort(-scores)[:5]) == set(range(5 * k, 5 * k + 5))


def test_wilcoxon_equals_scipy_mannwhitneyu(pbmc, counts):
    for X, y in [(pbmc[0].X, (codes_of(pbmc[0], "louvain") == 2).astype(int)),
                 (counts[1], (counts[2] == 1).astype(int))]:
        scores = WilcoxonSelector().select(X, y, random_state=0).scores
        z = wilcoxon_z(rank_entries(X), y, [1])[0]
        dense = X[:, :40].toarray()
        for j in range(40):
            x1, x0 = dense[y == 1, j], dense[y == 0, j]
            res = stats.mannwhitneyu(x1, x0, use_continuity=False, method="asymptotic")
            if res.pvalue == 1.0 and res.statistic == x1.size * x0.size / 2:
                assert z[j] == 0.0
                continue
            ref = stats.norm.isf(res.pvalue / 2) * np.sign(res.statistic
                                                          - x1.size * x0.size / 2)
            assert z[j] == pytest.approx(ref, rel=1e-9, abs=1e-9)
            assert scores[j] == pytest.approx(abs(ref), rel=1e-9, abs=1e-9)


def test_wilcoxon_dense_sparse_and_explicit_zeros_agree(counts):
    _, X, y = counts
    X = X[:, :60]
    yb = (y == 0).astype(int)
    sel = WilcoxonSelector()
    ref = sel.select(X, yb, random_state=0).scores
    np.testing.assert_array_equal(sel.select(X.toarray(), yb, random_state=0).scores, ref)
    explicit = X.tocoo()
    extra = sp.coo_matrix((np.zeros(50), (np.arange(50), np.arange(50))), shape=X.shape)
    with_zeros = sp.csr_matrix((np.r_[explicit.data, extra.data],
                                (np.r_[explicit.row, extra.row],
                                 np.r_[explicit.col, extra.col])), shape=X.shape)
    assert with_zeros.nnz > X.nnz or (with_zeros.data == 0).any()
    np.testing.assert_array_equal(sel.select(with_zeros, yb, random_state=0).scores, ref)


# ---------------------------------------------------------------------------------------
# Welch's t-test
# ---------------------------------------------------------------------------------------


def test_t_test_equals_scanpy(pbmc, counts):
    for adata, groupby in [(pbmc[0], "louvain"), (counts[0], "cluster")]:
        ref = scanpy_scores(adata, groupby, "t-test")
        y = codes_of(adata, groupby)
        sel = WelchTSelector()
        for c in range(ref.shape[0]):
            assert_close_to_scanpy(sel.select(adata.X, (y == c).astype(int),
                                              random_state=0).scores, ref[c])
        t = welch_t(adata.X, y, np.arange(ref.shape[0]))
        np.testing.assert_allclose(t, ref, rtol=1e-6, atol=1e-6)
        assert np.abs(ref).max() > 10


@pytest.mark.filterwarnings("ignore:Precision loss:RuntimeWarning")
def test_t_test_on_scaled_pbmc_equals_scanpy_except_its_constant_groups(pbmc):
    """On dense data scanpy's variance is mean(x^2) - mean(x)^2, which can round below 0
    for a group whose values are all equal (the scaled value of a gene never detected in
    the cluster): its t is then NaN, reported as 0. There, ours is scipy's."""
    adata = pbmc[1]
    ref = scanpy_scores(adata, "louvain", "t-test")
    y = codes_of(adata, "louvain")
    X = adata.X
    t = welch_t(X, y, np.arange(ref.shape[0]))
    constant = np.zeros(ref.shape, dtype=bool)
    for c in range(ref.shape[0]):
        for part in (X[y == c], X[y != c]):
            constant[c] |= part.min(axis=0) == part.max(axis=0)
    assert 50 < constant.sum() < 0.1 * constant.size
    np.testing.assert_allclose(t[~constant], ref[~constant], rtol=1e-6, atol=1e-6)
    for c, j in np.argwhere(constant & (ref == 0))[:20]:
        scipy_t = stats.ttest_ind(X[y == c, j], X[y != c, j], equal_var=False).statistic
        assert t[c, j] == pytest.approx(scipy_t, rel=1e-9) and t[c, j] != 0


def test_t_test_equals_scipy_welch(pbmc, counts):
    for X, y in [(pbmc[0].X, (codes_of(pbmc[0], "louvain") == 5).astype(int)),
                 (counts[1], (counts[2] == 3).astype(int))]:
        t = welch_t(X, y, [1])[0]
        dense = X.toarray()
        with np.errstate(invalid="ignore", divide="ignore"):
            ref = stats.ttest_ind(dense[y == 1], dense[y == 0], equal_var=False).statistic
        defined = np.isfinite(ref)
        assert defined.sum() > 0.9 * ref.size
        np.testing.assert_allclose(t[defined], ref[defined], rtol=1e-9, atol=1e-12)
        assert np.all(t[~defined] == 0.0)  # constant genes (all zero): 0, not NaN
        scores = WelchTSelector().select(X, y, random_state=0).scores
        np.testing.assert_array_equal(scores, np.abs(t))


@pytest.mark.filterwarnings("ignore:Precision loss:RuntimeWarning")
def test_t_test_conventions_where_t_is_undefined():
    X = np.array([[1.0, 0.0, 2.0, 5.0, 1.0],
                  [1.0, 0.0, 2.0, 5.0, 2.0],
                  [1.0, 3.0, 0.0, 5.0, 4.0],
                  [1.0, 3.0, 0.0, 5.5, 3.0]])
    y = np.array([0, 0, 1, 1])
    for data in (X, sp.csr_matrix(X)):
        t = welch_t(data, y, [1])[0]
        # constant: 0; each group constant, different values: +-SEPARATED_SCORE;
        # one group constant, the other not: finite; ordinary: scipy's
        assert t[0] == 0.0
        assert t[1] == SEPARATED_SCORE and t[2] == -SEPARATED_SCORE
        ref = stats.ttest_ind(X[y == 1], X[y == 0], equal_var=False).statistic
        np.testing.assert_allclose(t[3:], ref[3:], rtol=1e-12)
        scores = WelchTSelector().select(data, y, random_state=0).scores
        assert np.all(np.isfinite(scores.astype(np.float32)))
    # a group of one sample: undefined variance, 0
    assert np.all(welch_t(X, np.array([0, 0, 0, 1]), [1]) == 0.0)
    # non-integer constants: exactly 0, however the sums round
    Xc = np.full((1000, 2), 0.1)
    Xc[:, 1] = np.r_[np.full(500, 0.1), np.full(500, 0.3)]
    tc = welch_t(sp.csr_matrix(Xc), np.repeat([0, 1], 500), [1])[0]
    assert tc[0] == 0.0 and tc[1] == SEPARATED_SCORE


def test_wilcoxon_constant_and_degenerate_columns_score_zero():
    X = np.array([[0.0, 2.0, 1.0], [0.0, 2.0, 0.0], [0.0, 2.0, 3.0], [0.0, 2.0, 0.0]])
    z = wilcoxon_z(rank_entries(sp.csr_matrix(X)), np.array([0, 1, 0, 1]), [0, 1])
    assert np.all(z[:, :2] == 0.0) and np.all(z[:, 2] != 0.0)
    assert np.all(wilcoxon_z(rank_entries(X), np.zeros(4, int), [0, 1]) == 0.0)


# ---------------------------------------------------------------------------------------
# Resamples and per-class panels
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("selector", [WilcoxonSelector(), WelchTSelector(),
                                      LogRegSelector(C=0.1)],
                         ids=["wilcoxon", "t-test", "logreg"])
@pytest.mark.parametrize("dense", [False, True], ids=["csr", "dense"])
def test_resamples_and_panels_equal_select_on_repeated_rows(counts, selector, dense):
    _, X, y = counts
    X = X[:800, :120]
    y = y[:800]
    if dense:
        X = X.toarray()
    rng = np.random.default_rng(1)
    classes = (0, 1, 2, 3)
    draws = [rng.integers(0, 800, 800),                       # a bootstrap: rows repeat
             np.sort(rng.choice(800, 400, replace=False)),    # a subsample
             rng.choice(np.flatnonzero(y != 3), 800)]         # the last class absent
    for rows in draws:
        assert np.unique(rows).size < rows.size or rows.size == 400
        prepared = selector.prepare(X, y)
        panels = selector.select_rows_one_vs_rest([prepared] * 4, X, y, rows, classes,
                                                  random_state=7)
        for c, out in zip(classes, panels):
            yc = (y == c).astype(np.int64)
            ref = selector.select(X[rows], yc[rows], random_state=7).scores
            np.testing.assert_array_equal(out.scores, ref)
            rows_out = selector.select_rows(selector.prepare(X, yc), X, yc, rows,
                                            random_state=7)
            np.testing.assert_array_equal(rows_out.scores, ref)
            assert np.all(np.isfinite(ref))
        assert np.all(panels[3].scores == 0.0) == (not np.isin(3, y[rows]))
        # multiclass labels: the largest statistic over the classes
        multi = selector.select_rows(prepared, X, y, rows, random_state=7).scores
        np.testing.assert_array_equal(multi, np.max([o.scores for o in panels], axis=0))


def test_multiclass_select_is_the_largest_one_vs_rest_statistic(counts):
    _, X, y = counts
    for sel in (WilcoxonSelector(), WelchTSelector(), LogRegSelector(C=0.1)):
        multi = sel.select(X[:, :80], y, random_state=3).scores
        each = [sel.select(X[:, :80], (y == c).astype(int), random_state=3).scores
                for c in range(4)]
        np.testing.assert_array_equal(multi, np.max(each, axis=0))


def test_labels_are_converted_at_the_door(counts):
    _, X, y = counts
    names = np.array(["b cells", "t cells"])[(y == 2).astype(int)]
    for sel in (WilcoxonSelector(), WelchTSelector()):
        np.testing.assert_array_equal(
            sel.select(X, names, random_state=0).scores,
            sel.select(X, (y == 2).astype(int), random_state=0).scores)


# ---------------------------------------------------------------------------------------
# Logistic regression
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("params", [dict(C=0.1), dict(C=1.0, penalty="l2"),
                                    dict(C=0.5, solver="saga", max_iter=200)])
def test_logreg_scores_are_sklearn_coefficients(counts, params):
    _, X, y = counts
    X = X[:600]
    yb = (y[:600] == 1).astype(int)
    sel = LogRegSelector(**params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # saga's convergence warning at max_iter=200
        ours = sel.select(X, yb, random_state=5).scores
        ref = LogisticRegression(
            C=params["C"], l1_ratio=0.0 if params.get("penalty") == "l2" else 1.0,
            solver=params.get("solver", "liblinear"), max_iter=params.get("max_iter", 1000),
            tol=1e-4, random_state=5).fit(X, yb)
    np.testing.assert_array_equal(ours, np.abs(ref.coef_[0]))
    assert ours.max() > 0
    if params.get("penalty", "l1") == "l1":
        assert (ours == 0).mean() > 0.5  # L1: a sparse model
        # planted markers lead: cluster 1's (up) and the other clusters' (down)
        assert set(np.argsort(-ours)[:8]) <= set(range(20))


def test_logreg_checks_its_parameters_and_reports_them():
    with pytest.raises(ValueError, match="penalty"):
        LogRegSelector(penalty="l3")
    with pytest.raises(ValueError, match="C"):
        LogRegSelector(C=0)
    assert LogRegSelector(C=0.2).describe() == {
        "name": "logreg", "kind": "scores",
        "params": {"C": 0.2, "penalty": "l1", "solver": "liblinear", "max_iter": 1000,
                   "tol": 1e-4}}
    X = sp.random(20, 5, density=0.5, format="csr", rng=0)
    assert np.all(LogRegSelector().select(X, np.zeros(20, int), random_state=0).scores == 0)


# ---------------------------------------------------------------------------------------
# Never densified
# ---------------------------------------------------------------------------------------


def _refuse_dense(monkeypatch):
    def refuse(self, *args, **kwargs):
        raise AssertionError("a sparse matrix was densified")

    for cls in (sp.csr_matrix, sp.csc_matrix, sp.coo_matrix, sp.csr_array, sp.csc_array,
                sp.coo_array):
        monkeypatch.setattr(cls, "toarray", refuse)
        monkeypatch.setattr(cls, "todense", refuse)


def test_sparse_path_never_calls_toarray(counts, monkeypatch):
    _, X, y = counts
    _refuse_dense(monkeypatch)
    with pytest.raises(AssertionError, match="densified"):
        X.toarray()  # the trap works
    rows = np.random.default_rng(0).integers(0, X.shape[0], X.shape[0])
    for sel in (WilcoxonSelector(), WelchTSelector(), LogRegSelector(C=0.1)):
        prepared = sel.prepare(X, y)
        sel.select(X, y, random_state=0)
        sel.select_rows(prepared, X, (y == 1).astype(int), rows, random_state=0)
        sel.select_rows_one_vs_rest([prepared] * 4, X, y, rows, (0, 1, 2, 3),
                                    random_state=0)


def test_peak_memory_is_far_below_the_dense_matrix():
    # 50,000 x 2,000 at 1 %: 1e6 non-zeros (12 MB as CSR); dense would be 800 MB
    n, p = 50_000, 2_000
    rng = np.random.default_rng(0)
    size = n * p // 100
    X = sp.csr_matrix((rng.negative_binomial(2, 0.5, size) + 1.0,
                       (rng.integers(0, n, size), rng.integers(0, p, size))), shape=(n, p))
    y = rng.integers(0, 4, n)
    rows = rng.integers(0, n, n)
    tracemalloc.start()
    try:
        wil, tt = WilcoxonSelector(), WelchTSelector()
        prepared = wil.prepare(X, y)
        wil.select_rows_one_vs_rest([prepared] * 4, X, y, rows, (0, 1, 2, 3),
                                    random_state=0)
        tt.select_rows_one_vs_rest([None] * 4, X, y, rows, (0, 1, 2, 3), random_state=0)
        tt.select(X, (y == 0).astype(int), random_state=0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # about 95 MB: a few arrays of one value per non-zero entry, a sixth of dense
    assert peak < 130e6, f"peak {peak / 1e6:.0f} MB"


# ---------------------------------------------------------------------------------------
# In a run
# ---------------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore")
def test_per_class_run_equals_the_run_without_shared_panels(counts):
    """mm.run(per_class=True) through select_rows_one_vs_rest gives the panels of the
    base class's one select_rows per class."""
    import modelmine as mm
    from modelmine.selectors import Selector

    _, X, y = counts
    X, y = X[:600, :60], y[:600]
    for cls in (WilcoxonSelector, WelchTSelector):
        plain = type("Plain", (cls,),
                     {"select_rows_one_vs_rest": Selector.select_rows_one_vs_rest})
        runs = [mm.run(X, y, selector=sel, per_class=True, n_bootstraps=5, n_features=8,
                       random_state=0, progress=False) for sel in (cls(), plain())]
        freq = runs[0].class_frequencies
        assert freq.shape == (60, 4)
        np.testing.assert_array_equal(freq.to_numpy(), runs[1].class_frequencies.to_numpy())
        if cls is WilcoxonSelector:  # each cluster's planted markers are in its panels
            for k in range(4):
                assert freq.iloc[5 * k:5 * k + 5, k].mean() >= 0.8


# ---------------------------------------------------------------------------------------
# Direction and the comparison with each other cluster
# ---------------------------------------------------------------------------------------


def test_direction_signs_the_scores_as_scanpy_does(pbmc, counts):
    """scanpy's scores are the signed z and t: "up" is them, "down" their negation and
    "both" their absolute value, for every class of the per-class panels."""
    for adata, groupby in ((pbmc[0], "louvain"), (counts[0], "cluster")):
        codes = codes_of(adata, groupby)
        classes = tuple(range(int(codes.max()) + 1))
        rows = np.arange(adata.n_obs)
        for cls, method in ((WilcoxonSelector, "wilcoxon"), (WelchTSelector, "t-test")):
            ref = scanpy_scores(adata, groupby, method)
            for direction, want in (("up", ref), ("down", -ref), ("both", np.abs(ref))):
                sel = cls(direction=direction)
                got = sel.select_rows_one_vs_rest([sel.prepare(adata.X, codes)] * len(
                    classes), adata.X, codes, rows, classes, random_state=0)
                np.testing.assert_allclose(np.array([o.scores for o in got]), want,
                                           rtol=1e-6, atol=1e-6)


def test_logreg_direction_is_the_sign_of_sklearn_coefficients(counts):
    _, X, y = counts
    X, yb = X[:600], (y[:600] == 1).astype(int)
    coef = LogisticRegression(C=0.1, l1_ratio=1.0, solver="liblinear", max_iter=1000,
                              tol=1e-4, random_state=5).fit(X, yb).coef_[0]
    for direction, want in (("up", coef), ("down", -coef), ("both", np.abs(coef))):
        got = LogRegSelector(C=0.1, direction=direction).select(X, yb, random_state=5)
        np.testing.assert_array_equal(got.scores, want)
    assert LogRegSelector(direction="up").get_params()["direction"] == "up"
    with pytest.raises(ValueError, match="direction"):
        LogRegSelector(direction="upward")


@pytest.mark.parametrize("dense", [False, True], ids=["csr", "dense"])
def test_pairwise_t_equals_scipy_for_every_pair(pbmc, counts, dense):
    from scipy.stats import ttest_ind

    for adata, groupby in ((pbmc[0], "louvain"), (counts[0], "cluster")):
        codes = codes_of(adata, groupby)
        X = adata.X[:, :60]
        X = X.toarray() if dense else X
        Xd = np.asarray(X.toarray() if sp.issparse(X) else X)
        K = int(codes.max()) + 1
        t = welch_t_pairwise(X, codes, np.arange(K))
        for c in range(K):
            assert np.isnan(t[c, c]).all()
            for j in set(range(K)) - {c}:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ref = ttest_ind(Xd[codes == c], Xd[codes == j], equal_var=False)
                ref = np.nan_to_num(ref.statistic, nan=0.0)  # constant pairs: 0
                np.testing.assert_allclose(t[c, j], ref, rtol=1e-9, atol=1e-9)


def test_pairwise_t_conventions():
    X = np.array([[1.0, 2, 0], [1, 3, 0], [4, 2, 5], [4, 6, 5], [7, 1, 0]])
    codes = np.array([0, 0, 1, 1, 3])  # class 2 absent, class 3 a single sample
    t = welch_t_pairwise(X, codes, np.array([0, 1, 3]))
    assert t[0, 1, 0] == -SEPARATED_SCORE  # constant at 1 against constant at 4
    assert t[1, 0, 0] == SEPARATED_SCORE
    assert t[0, 1, 2] == -SEPARATED_SCORE
    assert np.isnan(t[:, 2]).all() and np.isnan(t[:, 3]).all()  # absent / one sample
    assert (t[2, :2] == 0).all()  # the single sample's own row: no variance, t = 0


def test_against_each_cluster_is_the_weakest_pairwise_t_of_the_resample(counts):
    """reference="each": a class's score is its smallest directed Welch t against any
    other class present in the resample (scipy's ttest_ind on the resample's rows)."""
    from scipy.stats import ttest_ind

    _, X, y = counts
    X, y = X[:800, :50], y[:800]
    Xd = X.toarray()
    rows = np.random.default_rng(4).integers(0, 800, 800)
    for direction in ("up", "down", "both"):
        sel = WelchTSelector(direction=direction, reference="each")
        out = sel.select_rows_one_vs_rest([None] * 4, X, y, rows, (0, 1, 2, 3),
                                          random_state=0)
        for c in range(4):
            pair = []
            for j in set(range(4)) - {c}:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    t = ttest_ind(Xd[rows][y[rows] == c], Xd[rows][y[rows] == j],
                                  equal_var=False).statistic
                t = np.nan_to_num(t, nan=0.0)
                pair.append({"up": t, "down": -t, "both": np.abs(t)}[direction])
            np.testing.assert_allclose(out[c].scores, np.min(pair, axis=0), rtol=1e-9,
                                       atol=1e-9)
    # with two classes there is one other class: "each" is "rest"
    yb = (y == 1).astype(int)
    np.testing.assert_array_equal(
        WelchTSelector(reference="each").select(X, yb, random_state=0).scores,
        WelchTSelector().select(X, yb, random_state=0).scores)
    with pytest.raises(ValueError, match="reference"):
        WelchTSelector(reference="closest")


@pytest.mark.parametrize("block", [None, 500], ids=["whole", "blocks-of-columns"])
def test_a_small_resample_ranks_its_own_rows_with_the_same_result(counts, block,
                                                                   monkeypatch):
    """A resample of fewer than half of the samples (capped per cluster) ranks its own
    distinct rows, by blocks of columns when they are many: the scores equal select on
    X[rows] bit for bit, and those of the full data's ranking read through the
    multiplicities."""
    import modelmine.selectors._singlecell as module
    from modelmine.selectors._singlecell import _Ranking

    if block is not None:
        monkeypatch.setattr(module, "_RESAMPLE_BLOCK_NNZ", block)

    _, X, y = counts
    X, y = X[:800, :150], y[:800]
    rows = np.random.default_rng(2).choice(np.arange(0, 800, 3), 300)  # <= 267 distinct
    sel = WilcoxonSelector(direction="up")
    prepared = sel.prepare(X, y)
    out = sel.select_rows_one_vs_rest([prepared] * 4, X, y, rows, (0, 1, 2, 3),
                                      random_state=0)
    assert prepared.full is None  # the data's own ranking was never made
    full = _Ranking(X)
    full.full = rank_entries(X)
    counts_all = np.bincount(rows, minlength=800)
    z = wilcoxon_z(full.full, y, np.arange(4), counts_all)
    for c in range(4):
        yc = (y == c).astype(np.int64)
        np.testing.assert_array_equal(out[c].scores,
                                      sel.select(X[rows], yc[rows], random_state=0).scores)
        np.testing.assert_allclose(out[c].scores, z[c], rtol=1e-12, atol=1e-12)
    ranking = _Ranking(X)
    assert len(list(ranking.blocks(rows))) == (1 if block is None else
                                                 pytest.approx(X[np.unique(rows)].nnz / block,
                                                               abs=3))
    each = WilcoxonSelector(direction="up", reference="each")
    pairs = each.select_rows_one_vs_rest([each.prepare(X, y)] * 4, X, y, rows,
                                         (0, 1, 2, 3), random_state=0)
    distinct, mult = np.unique(rows, return_counts=True)
    whole = wilcoxon_auroc_pairwise(rank_entries(X[distinct]), y[distinct], np.arange(4),
                                    mult)  # all the columns at once
    for c in range(4):
        others = [j for j in range(4) if j != c]
        np.testing.assert_array_equal(pairs[c].scores, (whole[c, others] - 0.5).min(0))


@pytest.mark.parametrize("signed", [False, True], ids=["counts", "with-negatives"])
def test_pairwise_auroc_equals_scipy_mannwhitneyu(pbmc, counts, signed):
    """Every pair of classes: U / (n_c n_j) of scipy's mannwhitneyu, ties and zeros
    included; absent classes and the class itself are NaN; repeated rows through their
    multiplicities equal the repeated matrix."""
    from scipy.stats import mannwhitneyu

    from modelmine.selectors import wilcoxon_auroc_pairwise

    adata = pbmc[1] if signed else pbmc[0]  # scaled (negative values) or log-normalised
    codes = codes_of(adata, "louvain")
    X = adata.X[:, :25]
    Xd = np.asarray(X.toarray() if sp.issparse(X) else X)
    K = int(codes.max()) + 1
    asked = np.array([0, 3, K - 1])
    A = wilcoxon_auroc_pairwise(rank_entries(X), codes, asked)
    for i, c in enumerate(asked):
        for j in range(K):
            if j == c:
                assert np.isnan(A[i, j]).all()
                continue
            u = mannwhitneyu(Xd[codes == c], Xd[codes == j]).statistic
            ref = u / ((codes == c).sum() * (codes == j).sum())
            np.testing.assert_allclose(A[i, j], ref, rtol=1e-12, atol=1e-12)
    _, Xc, y = counts
    rows = np.random.default_rng(3).choice(np.flatnonzero(y != 2), 900)  # class 2 absent
    multi = wilcoxon_auroc_pairwise(rank_entries(Xc), y, np.arange(4),
                                    np.bincount(rows, minlength=Xc.shape[0]))
    direct = wilcoxon_auroc_pairwise(rank_entries(Xc[rows]), y[rows], np.arange(4))
    np.testing.assert_allclose(multi, direct, rtol=1e-12, atol=1e-12)
    assert np.isnan(multi[:, 2]).all() and np.isnan(multi[2]).all()


def test_wilcoxon_against_each_cluster_is_the_weakest_auroc(counts):
    """reference="each": a class's score is min_j (AUROC_cj - 1/2), directed, the AUROC
    of sklearn's roc_auc_score on the resample's cells of the two classes."""
    from sklearn.metrics import roc_auc_score

    _, X, y = counts
    X, y = X[:800, :40], y[:800]
    Xd = X.toarray()
    rows = np.random.default_rng(5).choice(800, 300, replace=False)  # a small resample
    Xr, yr = Xd[rows], y[rows]
    auc = {}  # (c, j): AUROC of class c against class j, minus 1/2, per gene
    for c in range(4):
        for j in set(range(4)) - {c}:
            both = (yr == c) | (yr == j)
            auc[c, j] = np.array([roc_auc_score(yr[both] == c, Xr[both, g])
                                  for g in range(40)]) - 0.5
    for direction in ("up", "both"):
        sel = WilcoxonSelector(direction=direction, reference="each")
        out = sel.select_rows_one_vs_rest([sel.prepare(X, y)] * 4, X, y, rows,
                                          (0, 1, 2, 3), random_state=0)
        for c in range(4):
            pair = [auc[c, j] if direction == "up" else np.abs(auc[c, j])
                    for j in set(range(4)) - {c}]
            np.testing.assert_allclose(out[c].scores, np.min(pair, axis=0), atol=1e-12)
    assert WilcoxonSelector(reference="each").get_params() == {"reference": "each"}


def test_a_float32_atlas_is_taken_as_it_is_with_the_float64_scores(counts, monkeypatch):
    """The Wilcoxon and t-test selectors take a float32 CSR matrix without a float64 copy
    of it (they compute in float64 on the slices they read), with the scores of the
    float64 matrix, bit for bit."""
    import modelmine.selectors._base as base

    _, X, y = counts
    X64 = X[:900, :200].astype(np.float64)
    X32 = X64.astype(np.float32)
    X64 = X32.astype(np.float64)  # the same values
    yy = y[:900]
    rows = np.random.default_rng(8).choice(900, 300, replace=False)
    seen = []
    real = base._door_X
    monkeypatch.setattr(base, "_door_X", lambda X, *a: seen.append(
        real(X, *a).dtype) or real(X, *a))
    for sel in (WilcoxonSelector(direction="up"), WilcoxonSelector(reference="each"),
                WelchTSelector(), WelchTSelector(direction="up", reference="each")):
        for_32 = sel.select_rows_one_vs_rest([sel.prepare(X32, yy)] * 4, X32, yy, rows,
                                             (0, 1, 2, 3), random_state=0)
        for_64 = sel.select_rows_one_vs_rest([sel.prepare(X64, yy)] * 4, X64, yy, rows,
                                             (0, 1, 2, 3), random_state=0)
        for a, b in zip(for_32, for_64):
            np.testing.assert_array_equal(a.scores, b.scores)
        np.testing.assert_array_equal(sel.select(X32, yy, random_state=0).scores,
                                      sel.select(X64, yy, random_state=0).scores)
    assert np.dtype(np.float32) in seen  # passed through the door as it is
    assert LogRegSelector.takes_float32 is False


@pytest.mark.parametrize("grouped", [False, True], ids=["any-order", "grouped-by-column"])
@pytest.mark.parametrize("kind", ["normal32", "counts", "log1p", "float64", "signed_zeros",
                                  "extremes"])
def test_column_value_order_is_lexsort(kind, grouped, monkeypatch):
    """The radix route of the entries' sort (float32-exact values: two 16-bit halves of
    the order-preserving bits) gives lexsort's permutation, ties kept in input order:
    negative values, ties, -0.0 beside 0.0, subnormals, the float32 extremes, and values
    float32 cannot hold (the comparison sort then); entries grouped by column (a CSC
    matrix's) are sorted by blocks of a few columns, here of about 1,000 entries, the
    high halves and the columns in one pass where they fit 16 bits (positive values of
    a narrow range, as log-normalised counts)."""
    import modelmine.selectors._singlecell as module
    from modelmine.selectors._singlecell import column_value_order

    monkeypatch.setattr(module, "_SORT_BLOCK", 1000)
    rng = np.random.default_rng(7)
    n, p = 20000, 900
    if kind == "normal32":
        d = rng.normal(size=n).astype(np.float32).astype(np.float64)
    elif kind == "counts":
        d = rng.poisson(2, n).astype(np.float64) - 1.0
    elif kind == "log1p":
        d = np.log1p(rng.poisson(3, n) + 0.5 * rng.integers(1, 40, n)).astype(np.float32)
        d = d.astype(np.float64)
    elif kind == "float64":
        d = rng.normal(size=n)
    elif kind == "signed_zeros":
        d = np.round(rng.normal(size=n), 1)
        d[::7], d[::11] = -0.0, 0.0
    else:
        d = np.r_[rng.normal(size=n - 4), 1e-40, -1e-40, 3.4e38, -3.4e38]
        d = d.astype(np.float32).astype(np.float64)
    cols = rng.integers(0, p, d.size)
    if grouped:
        cols = np.sort(cols)
    assert np.array_equal(column_value_order(d, cols, p), np.lexsort((d, cols)))


def test_pairwise_auroc_by_blocks_and_in_float64(counts, monkeypatch):
    """The pairwise AUROC taken a few columns at a time (the cumulative sums' memory
    bounded) equals scipy's mannwhitneyu U / (n_c n_j) on the matrix with repeated rows;
    multiplicities 100,000 times larger (more than 2^15 samples: the sums in float64
    instead of int32) give the same AUROCs, bit for bit."""
    from scipy.stats import mannwhitneyu

    import modelmine.selectors._singlecell as module

    monkeypatch.setattr(module, "_PAIRWISE_CELLS", 200)
    _, X, y = counts
    X, y = X[:300, :30], y[:300]
    mult = np.random.default_rng(4).integers(0, 3, 300)
    ranked = rank_entries(X)
    A = wilcoxon_auroc_pairwise(ranked, y, [1, 3], mult)
    rows = np.repeat(np.arange(300), mult)
    Xr, yr = X[rows].toarray(), y[rows]
    for i, c in enumerate([1, 3]):
        for j in set(range(4)) - {c}:
            u = mannwhitneyu(Xr[yr == c], Xr[yr == j]).statistic
            np.testing.assert_allclose(A[i, j], u / ((yr == c).sum() * (yr == j).sum()),
                                       rtol=1e-12, atol=1e-12)
    assert mult.sum() * 100_000 > 1 << 15
    np.testing.assert_array_equal(wilcoxon_auroc_pairwise(ranked, y, [1, 3], mult * 100_000),
                                  A)
