"""Every gene's effect (``effect_table``, ``run.effects()``) and enrichment of gene sets
(``enrichment``, ``run.enrichment()``) against outside truths: scipy's Mann-Whitney test,
Spearman correlation and Benjamini-Hochberg control, the Cox fit of the markers, scipy's
hypergeometric tail by brute force, and gseapy's ``enrich`` with the same background."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.stats import false_discovery_control, hypergeom, mannwhitneyu, spearmanr

import modelmine as mm
from modelmine.diagnostics import cox_univariate, effect_table, enrichment, marker_table


def _classes(seed=0, n=40, p=600):
    rng = np.random.default_rng(seed)
    y = np.repeat(["ctrl", "case"], n // 2)
    X = rng.normal(size=(n, p))
    X[y == "case", :5] += 2.5  # five planted genes
    X[:, 7] = np.round(X[:, 7])  # ties
    return X, y


def test_the_markers_p_value_is_scipys_mann_whitney():
    X, y = _classes(p=12)
    table = marker_table(X, y)
    for row in table.itertuples():
        j = int(row.feature[1:])
        inside = y == row._1
        expected = mannwhitneyu(X[inside, j], X[~inside, j], method="asymptotic",
                                use_continuity=False).pvalue
        assert row.p_value == pytest.approx(expected, rel=1e-10)


def test_effects_cover_every_feature_across_blocks_with_bh_over_all():
    X, y = _classes(p=600)  # more columns than one block (512)
    table = effect_table(X, y)
    assert len(table) == 2 * 600
    for _cls, part in table.groupby("class"):
        assert part.feature.nunique() == 600
        np.testing.assert_allclose(part.q_value, false_discovery_control(part.p_value))
        assert list(part.rank_in_class) == list(range(1, 601))
        assert set(part.feature.head(5)) == {f"x{j}" for j in range(5)}
    # one measure, decided on all the values; each row as marker_table gives it alone
    assert table.effect_measure.nunique() == 1
    alone = marker_table(X, y, features=[3, 550, 7]).set_index(["class", "feature"])
    mine = table.set_index(["class", "feature"]).loc[alone.index]
    for col in ("effect_size", "auroc", "p_value", "mean_in_class"):
        np.testing.assert_allclose(mine[col], alone[col], rtol=1e-12)
    sparse = effect_table(sp.csr_matrix(np.abs(X)), y)
    dense = effect_table(np.abs(X), y)
    pd.testing.assert_frame_equal(sparse, dense)


def test_effects_of_a_continuous_and_a_survival_outcome():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 8))
    response = X[:, 0] - 0.5 * X[:, 1] + rng.normal(size=60)
    reg = effect_table(X, response, "regression").set_index("feature")
    for j in range(8):
        rho, p = spearmanr(X[:, j], response)
        assert reg.loc[f"x{j}", "effect_size"] == pytest.approx(rho)
        assert reg.loc[f"x{j}", "p_value"] == pytest.approx(p)
    np.testing.assert_allclose(reg.q_value, false_discovery_control(reg.p_value))
    time = rng.exponential(np.exp(-X[:, 2]))
    event = rng.random(60) < 0.8
    surv = np.empty(60, dtype=[("event", bool), ("time", float)])
    surv["event"], surv["time"] = event, time
    pytest.importorskip("sksurv")
    table = effect_table(X, surv, "survival").set_index("feature")
    for j in range(8):
        x = X[:, j]
        beta, _ = cox_univariate((x - x.mean()) / x.std(), event, time)
        assert table.loc[f"x{j}", "hazard_ratio"] == pytest.approx(np.exp(beta))
    assert table.index[0] == "x2"  # the planted risk gene has the largest effect


@pytest.fixture(scope="module")
def colon_run():
    X, y, names = mm.datasets.load_colon(return_names=True)
    X, names = X[:, :300], names[:300]
    return mm.run(X, y, selector="anova", operators=["closedApr", "allMed"],
                  n_bootstraps=6, n_features=8, n_signatures=2, feature_names=names,
                  random_state=0, progress=False)


def test_run_effects_are_the_markers_rows_for_every_signature_gene(colon_run, tmp_path):
    effects = colon_run.effects()
    assert len(effects) == 2 * 300
    markers = colon_run.markers("allMed")
    merged = markers.merge(effects, on=["class", "feature"], suffixes=("", "_all"))
    assert len(merged) == len(markers)
    for col in ("effect_size", "auroc", "p_value", "mean_in_class", "mean_rest"):
        np.testing.assert_allclose(merged[col], merged[f"{col}_all"], rtol=1e-12)
    assert (merged.effect_measure == merged.effect_measure_all).all()
    colon_run.save(tmp_path / "run", report=False)
    back = mm.MiningRun.load(tmp_path / "run")
    pd.testing.assert_frame_equal(back.effects(), effects, check_dtype=False)
    # a corrupt effects.csv is refused naming the file and what is wrong
    path = tmp_path / "run" / "effects.csv"
    text = path.read_text().splitlines()
    path.write_text("\n".join(text[:-1]) + "\n")
    with pytest.raises(mm.exceptions.DataError, match=r"effects\.csv' is corrupt: it must "
                                                       r"hold every feature"):
        mm.MiningRun.load(tmp_path / "run")


def _brute_force(query, gene_set, universe):
    """P(X >= k) summed term by term from the hypergeometric mass, by counting."""
    from math import comb

    U = set(universe)
    q, s = set(query) & U, set(gene_set) & U
    k, N, K, n = len(q & s), len(U), len(s), len(q)
    return sum(comb(K, i) * comb(N - K, n - i) for i in range(k, min(K, n) + 1)) / comb(N, n)


def test_enrichment_is_the_hypergeometric_tail_over_the_tested_universe():
    universe = [f"G{i}" for i in range(200)]
    sets = {"A": [f"G{i}" for i in range(0, 30)] + ["NOT_TESTED1", "NOT_TESTED2"],
            "B": [f"G{i}" for i in range(25, 60)], "C": [f"G{i}" for i in range(150, 156)],
            "D": ["ABSENT"]}
    sigs = {"sig": [f"G{i}" for i in range(0, 12)] + ["G150"], "other": ["G199", "G198"]}
    table = enrichment(sigs, sets, universe)
    assert set(table.gene_set) == {"A", "B", "C"}  # D has no gene in the universe
    for row in table.itertuples():
        expected = _brute_force(sigs[row.signature], sets[row.gene_set], universe)
        assert row.p_value == pytest.approx(expected, rel=1e-9)
        assert row.p_value == pytest.approx(hypergeom.sf(
            row.overlap - 1, row.universe, row.set_size, row.signature_size), rel=1e-12)
    a = table[(table.signature == "sig") & (table.gene_set == "A")].iloc[0]
    assert (a.overlap, a.set_size, a.universe, a.signature_size) == (12, 30, 200, 13)
    assert a.genes == ";".join(f"G{i}" for i in range(12))
    for _, part in table.groupby("signature"):
        np.testing.assert_allclose(part.q_value, false_discovery_control(part.p_value))


def test_enrichment_equals_gseapys_enrich_with_the_same_background():
    gseapy = pytest.importorskip("gseapy")
    rng = np.random.default_rng(3)
    universe = [f"G{i}" for i in range(300)]
    sets = {f"S{j}": [*rng.choice(universe, size=int(rng.integers(8, 40)), replace=False),
                      f"X{j}"] for j in range(12)}
    query = list(rng.choice(universe[:80], size=25, replace=False))
    ours = enrichment({"q": query}, sets, universe).set_index("gene_set")
    theirs = gseapy.enrich(gene_list=query, gene_sets=sets, background=universe,
                           outdir=None, no_plot=True).results.set_index("Term")
    assert set(theirs.index) == set(ours.index[ours.overlap > 0])
    for term, row in theirs.iterrows():
        assert ours.loc[term, "p_value"] == pytest.approx(row["P-value"], rel=1e-10)
        assert f"{ours.loc[term, 'overlap']}/{ours.loc[term, 'set_size']}" == row["Overlap"]
    if (ours.overlap > 0).all():  # the same family of sets: the same q-values
        for term, row in theirs.iterrows():
            assert ours.loc[term, "q_value"] == pytest.approx(row["Adjusted P-value"])


def test_run_enrichment_names_signatures_and_reads_gmt(colon_run, tmp_path):
    genes = [str(g) for g in colon_run.signatures["closedApr"].names]
    gmt = tmp_path / "sets.gmt"
    gmt.write_text(f"TOP\tna\t{chr(9).join(genes[:4])}\tNOT_A_GENE\n"
                   "REST\thttp://example.org\tx0\tx1\n\n")
    assert mm.datasets.read_gmt(gmt) == {"TOP": [*genes[:4], "NOT_A_GENE"],
                                         "REST": ["x0", "x1"]}
    table = colon_run.enrichment(gmt)
    assert set(table.signature) == {"closedApr", "allMed_alt1", "allMed_alt2"}
    top = table[(table.signature == "closedApr") & (table.gene_set == "TOP")].iloc[0]
    assert (top.overlap, top.set_size, top.universe) == (4, 4, 300)
    bad = tmp_path / "bad.gmt"
    bad.write_text("ONLY_A_NAME\tdescription\n")
    with pytest.raises(mm.exceptions.DataError, match="line 1 is not a GMT gene set"):
        mm.datasets.read_gmt(bad)
    with pytest.raises(TypeError, match=r"'gene_sets' parameter of MiningRun\.enrichment"):
        colon_run.enrichment(["TP53"])
