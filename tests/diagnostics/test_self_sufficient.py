"""self_sufficient_itemsets (issue 49, item 4): co-selection that beats every split.

Checked against independent truths: the productivity p-value against scipy's Fisher exact
test over every split enumerated by bitmask, and its stratified form against the exact
conditional distribution enumerated by brute force
(``tests/kernels/test_self_sufficient_kernels.py``); invariants (the models' order, the
features' labels); a planted triple reported itself, not its pairs nor a superset; and a
slice of the committed benchmark (``benchmarks/results/self_sufficient_*.csv``) recomputed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from modelmine.diagnostics import productivity_pvalue, self_sufficient_itemsets

ROOT = Path(__file__).resolve().parents[2]


def _brute_productivity(M, items):
    """Largest one-sided Fisher p-value over every split of ``items`` into two non-empty
    parts, the splits enumerated as bitmasks (each unordered split once)."""
    k = len(items)
    worst = 0.0
    for mask in range(1, 2 ** k - 1):
        if not mask & 1:  # the part holding items[0] is the left one: each split once
            continue
        left = [items[i] for i in range(k) if mask >> i & 1]
        right = [items[i] for i in range(k) if not mask >> i & 1]
        x, y = M[:, left].all(axis=1), M[:, right].all(axis=1)
        table = [[int((x & y).sum()), int((x & ~y).sum())],
                 [int((~x & y).sum()), int((~x & ~y).sum())]]
        worst = max(worst, stats.fisher_exact(table, alternative="greater").pvalue)
    return worst


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_productivity_is_fisher_over_every_split(seed):
    rng = np.random.default_rng(seed)
    M = rng.random((30, 6)) < 0.45
    M[rng.random(30) < 0.3, :3] = True
    for items in [(0, 1), (0, 1, 2), (1, 2, 4), (0, 1, 2, 3), (0, 2, 3, 4, 5)]:
        got = productivity_pvalue(M, items)
        assert got["p_value"] == pytest.approx(_brute_productivity(M, list(items)),
                                               rel=1e-9, abs=1e-15), (seed, items)
        assert got["count"] == int(M[:, list(items)].all(axis=1).sum())
        left, right = got["split"]
        assert sorted(left + right) == sorted(items)


def test_invariant_to_the_models_order_and_the_features_labels():
    rng = np.random.default_rng(5)
    M = rng.random((40, 8)) < 0.4
    M[rng.random(40) < 0.3, 2:5] = True
    items = (2, 3, 4)
    rows, cols = rng.permutation(40), rng.permutation(8)
    moved = M[rows][:, cols]
    where = tuple(int(np.flatnonzero(cols == i)[0]) for i in items)
    for n_strata in (1, 3):
        a = productivity_pvalue(M, items, n_strata=n_strata)
        b = productivity_pvalue(moved, where, n_strata=n_strata)
        assert a["p_value"] == pytest.approx(b["p_value"], rel=1e-12)
        assert a["count"] == b["count"] and a["expected"] == pytest.approx(b["expected"])


def _planted(seed, b=100, p=40, rate=0.25):
    rng = np.random.default_rng(seed)
    M = rng.random((b, p)) < rng.uniform(0.1, 0.4, p)
    M[rng.choice(b, round(rate * b), replace=False)[:, None], [3, 7, 11]] = True
    return M


def test_a_planted_triple_is_reported_itself_not_its_pairs_nor_a_superset():
    hits = 0
    for seed in range(4):
        table = self_sufficient_itemsets(_planted(seed), method="holdout",
                                         random_state=seed)
        assert table.attrs["family"] == "split" and table.attrs["test"] == "productive"
        passed = [set(t) for t in table.loc[table["passes"], "items"]]
        sufficient = [set(t) for t in table.loc[table["self_sufficient"], "items"]]
        assert all(s <= {3, 7, 11} for s in passed), passed  # nothing else passes
        assert all(s == {3, 7, 11} for s in sufficient), sufficient  # pairs explained
        hits += {3, 7, 11} in sufficient
        assert (table["q_value"] >= table["p_value"] * 0).all()
        assert table["p_value"].is_monotonic_increasing
    assert hits >= 3


def test_swap_reports_the_planted_triple_itself_from_all_the_models():
    """The swap method searches every itemset on all 100 models: the triple passes and is
    the only self-sufficient itemset, its pairs pass but are explained by it, nothing
    else passes; its q-value is the adjusted p-value of the randomised minima."""
    for seed in (0, 1):
        table = self_sufficient_itemsets(_planted(seed, rate=0.2), n_randomizations=60,
                                         random_state=seed)
        attrs = table.attrs
        assert attrs["method"] == "swap" and attrs["family"] == "all"
        assert attrs["n_test"] == 100 and attrs["n_randomizations"] == 60
        passed = [set(t) for t in table.loc[table["passes"], "items"]]
        sufficient = [set(t) for t in table.loc[table["self_sufficient"], "items"]]
        assert {3, 7, 11} in passed and all(s <= {3, 7, 11} for s in passed), passed
        assert sufficient == [{3, 7, 11}]
        row = table[table["items"] == (3, 7, 11)].iloc[0]
        assert row["p_value"] == pytest.approx(
            productivity_pvalue(_planted(seed, rate=0.2), (3, 7, 11))["p_value"],
            rel=1e-9)
        # the triple's size: its critical value, unless the search stopped short of it
        assert set(attrs["critical_p"]) == {2, 3, 4}
        assert not row["p_value"] >= attrs["critical_p"][3]
        # the layer's adjusted p-value: L (1 + a) / (1 + R), a the matrices that did as well
        assert row["q_value"] * 61 / 3 == pytest.approx(round(row["q_value"] * 61 / 3))
        assert len(table) == 20 and table["p_value"].is_monotonic_increasing
        assert table["selection_p"].isna().all() and table["weight"].isna().all()


def test_swap_is_reproducible_and_refuses_too_few_randomizations():
    M = _planted(2, p=25)
    a = self_sufficient_itemsets(M, n_randomizations=60, random_state=4)
    assert a.equals(self_sufficient_itemsets(M, n_randomizations=60, random_state=4))
    with pytest.raises(ValueError, match=r"'n_randomizations' parameter.*at least 59"):
        self_sufficient_itemsets(M, n_randomizations=58)
    with pytest.raises(ValueError, match=r"'n_randomizations' parameter.*at least 19"):
        self_sufficient_itemsets(M, n_randomizations=18, max_len=3, fdr=0.1)
    with pytest.raises(ValueError, match=r"'method' parameter.*'swap', 'holdout'"):
        self_sufficient_itemsets(M, method="split")
    # a given family is tested as given whatever the method
    given = self_sufficient_itemsets(M, [(3, 7, 11), (0, 1)], method="swap")
    held = self_sufficient_itemsets(M, [(3, 7, 11), (0, 1)], method="holdout")
    assert given.attrs["family"] == held.attrs["family"] == "given"
    assert given.drop(columns="itemset").equals(held.drop(columns="itemset"))


def test_a_noise_superset_fails_its_split():
    """{3, 7, 11, j} with j independent: the split {3, 7, 11} | {j} is not rejected."""
    M = _planted(7, b=200)
    whole = productivity_pvalue(M, (3, 7, 11))
    assert whole["p_value"] < 1e-6
    noisy = productivity_pvalue(M, (3, 7, 11, 20))
    assert noisy["p_value"] > 0.05 and set(noisy["split"][1]) | set(noisy["split"][0]) \
        == {3, 7, 11, 20}


def test_given_family_names_and_bad_input():
    M = _planted(1)
    table = self_sufficient_itemsets(M, [(3, 7, 11), (0, 1)])
    assert table.attrs["family"] == "given" and table.attrs["n_test"] == 100
    assert np.isnan(table["selection_p"]).all() and (table["weight"] == 1).all()
    top = table.iloc[0]
    assert top["items"] == (3, 7, 11) and top["passes"] and top["self_sufficient"]
    assert top["p_value"] == pytest.approx(productivity_pvalue(M, (3, 7, 11))["p_value"])
    with pytest.raises(ValueError, match="'itemsets' parameter of self_sufficient_itemsets"):
        self_sufficient_itemsets(M, [(3,)])
    with pytest.raises(ValueError, match="'n_tested' parameter"):
        self_sufficient_itemsets(M, n_tested=0)
    with pytest.raises(ValueError, match="'max_len' parameter"):
        self_sufficient_itemsets(M, max_len=1)
    with pytest.raises(ValueError, match=r"'n_strata' parameter.*\"auto\""):
        self_sufficient_itemsets(M, n_strata="many")
    with pytest.raises(ValueError, match="'fdr' parameter"):
        self_sufficient_itemsets(M, fdr=0)
    with pytest.raises(ValueError, match="'items' parameter of productivity_pvalue"):
        productivity_pvalue(M, (3,))
    assert self_sufficient_itemsets(M, method="holdout", random_state=3).equals(
        self_sufficient_itemsets(M, method="holdout", random_state=3))


def test_committed_benchmark_slice_recomputed():
    """Three runs of two designs of the committed benchmark (the fixed-m null of
    ``self_sufficient_nulls.csv``, a triple planted in 12 % of the models of
    ``self_sufficient_planted_0.05.csv``) recomputed row for row."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_self_sufficient as bench

    results = ROOT / "benchmarks" / "results"
    for scenario, f0, rate, name in [("fixed-m", np.nan, 0.0, "self_sufficient_nulls.csv"),
                                     ("planted", 0.05, 0.12,
                                      "self_sufficient_planted_0.05.csv")]:
        table = pd.read_csv(results / name)
        rows = table[(table["scenario"] == scenario) & (table["rate"] == rate)]
        if not np.isnan(f0):
            rows = rows[rows["f0"] == f0]
        rows = rows.set_index("run")
        for run in range(3):
            M = bench.draw(scenario, f0, rate, run)
            got = bench.judge(self_sufficient_itemsets(M, method="holdout", random_state=run),
                              scenario == "planted")
            row = rows.loc[run]
            for column in ("tested", "discoveries", "false_discoveries", "power", "exact"):
                assert got[column] == row[column], (scenario, run, column)


def test_committed_swap_benchmark_slice_recomputed():
    """The swap method's committed benchmark, a run of the fixed-m null with a false
    discovery (``self_sufficient_swap_nulls.csv``, run 6) and one of a triple of own
    frequency 0.1 planted in 12 % of the models (``self_sufficient_swap_planted.csv``, run
    30), recomputed row for row: the verdicts, the strata used and every critical value
    the search resolved."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_self_sufficient as bench

    results = ROOT / "benchmarks" / "results"
    for scenario, f0, rate, run, name in [
            ("fixed-m", np.nan, 0.0, 6, "self_sufficient_swap_nulls.csv"),
            ("planted", 0.1, 0.12, 30, "self_sufficient_swap_planted.csv")]:
        table = pd.read_csv(results / name)
        rows = table[(table["scenario"] == scenario) & (table["rate"] == rate)
                     & (table["method"] == "swap")]
        if not np.isnan(f0):
            rows = rows[rows["f0"] == f0]
        row = rows.set_index("run").loc[run]
        # the runs chosen: the null's false discovery, the planted triple found
        assert row["false_discoveries"] == 1 if scenario == "fixed-m" else row["power"]
        M = bench.draw(scenario, f0, rate, run)
        got = self_sufficient_itemsets(M, method="swap", random_state=run)
        verdicts = bench.judge(got, scenario == "planted")
        for column in ("tested", "discoveries", "false_discoveries", "power", "exact"):
            assert verdicts[column] == row[column], (scenario, column)
        assert got.attrs["n_strata"] == row["n_strata"]
        for k, value in got.attrs["critical_p"].items():
            assert value == pytest.approx(row[f"critical_{k}"], rel=1e-9, nan_ok=True)


def test_committed_coselect_limit_slice_recomputed():
    """``benchmarks/results/coselect_limit.csv`` (docs/diagnostics.md, the limit of a
    search of the triples): run 0's four statistics of the planted triple and its
    rank among the 280,840 triples recomputed from the base models; the productivity
    statistic equals the library's ``productivity_pvalue`` (scipy's Fisher tails per
    split), and the Rasch fit that the Poisson and likelihood-ratio statistics use has the
    base models' margins."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_coselect_limit as bench

    table = pd.read_csv(ROOT / "benchmarks" / "results" / "coselect_limit.csv")
    for run in (0,):
        rows = table[(table.run == run) & (table.f0 == 0.2) & (table.rate == 0.12)]
        rows = rows.set_index("statistic")
        assert set(rows.index) == set(bench.STATS)
        M, truth = bench.draw(run, 0.2, 0.12)
        fitted = bench.rasch_fit(M)
        np.testing.assert_allclose(fitted.sum(axis=1), M.sum(axis=1), atol=1e-6)
        np.testing.assert_allclose(fitted.sum(axis=0), M.sum(axis=0), atol=1e-6)
        scores = bench.Scores(M, truth, 0.12)(M)
        library = productivity_pvalue(M, (0, 1, 2))["p_value"]
        assert scores["productive"][bench.PLANTED] == pytest.approx(-np.log(library),
                                                                    rel=1e-9)
        assert rows.loc["productive", "count"] == M[:, :3].all(axis=1).sum()
        for stat in bench.STATS:
            mine = scores[stat][bench.PLANTED]
            assert mine == pytest.approx(rows.loc[stat, "score"], rel=1e-6), (run, stat)
            assert int((scores[stat] > mine).sum()) + 1 == rows.loc[stat, "rank"], stat
