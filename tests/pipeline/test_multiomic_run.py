"""A run on several omics (issue 51, item 4): ``mm.run(mdata, "obs:label")``, the same from
tables and from the command line; each feature's modality in the effects and markers,
each modality's effect measure decided on its own values, and ``stabl``'s threshold per
modality (Hedou et al. 2024), checked against the operator run on each modality's models
alone and against effect tables computed on each block alone."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import false_discovery_control

import modelmine as mm
from modelmine.base_models import BaseModels
from modelmine.datasets import from_mudata
from modelmine.diagnostics import effect_table
from modelmine.exceptions import DataError

ad = pytest.importorskip("anndata", reason="AnnData is the modalities' container")
md = pytest.importorskip("mudata", reason="MuData is the multi-omic container under test")

SETTINGS = dict(selector="anova", n_bootstraps=12, n_features=8, resampling="subsample",
                sample_fraction=0.5, random_state=3)


@pytest.fixture(scope="module")
def mdata():
    """40 samples: rna on a log scale (60 genes, G0-G2 planted), prot as raw intensities
    (20 proteins, P0-P1 planted), prot's rows in another order; a patient column."""
    rng = np.random.default_rng(11)
    n = 40
    ids = [f"s{i:02d}" for i in range(n)]
    y = np.repeat(["ctrl", "case"], n // 2)
    R = 6 + rng.normal(size=(n, 60))
    R[:, :3] += (y == "case")[:, None] * 1.5
    P = 1000 + 150 * rng.normal(size=(n, 20))
    P[:, :2] += (y == "case")[:, None] * 300
    rna = ad.AnnData(R)
    rna.obs_names, rna.var_names = ids, [f"G{j}" for j in range(60)]
    order = rng.permutation(n)
    prot = ad.AnnData(P[order])
    prot.obs_names, prot.var_names = [ids[i] for i in order], [f"P{j}" for j in range(20)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = md.MuData({"rna": rna, "prot": prot})
    data.obs["label"] = pd.Series(y, index=ids)
    data.obs["patient"] = pd.Series(np.repeat(np.arange(n // 2), 2).astype(str), index=ids)
    return data


@pytest.fixture(scope="module")
def run(mdata):
    return mm.run(mdata, "obs:label", operators=["closedApr", "stabl"],
                  artificial_features="permutation", **SETTINGS)


def test_the_run_names_every_feature_by_its_modality(run, mdata):
    base = run.base_models
    assert base.modalities == (("rna", 60), ("prot", 20))
    assert list(base.feature_names[:2]) == ["rna:G0", "rna:G1"]
    assert base.feature_names[60] == "prot:P0"
    assert dict(run.data["modalities"]) == {"rna": 60, "prot": 20}
    assert run.data["values"].startswith("rna: ") and "; prot: " in run.data["values"]
    # the same run from the joined data: the door changes nothing else
    again = mm.run(from_mudata(mdata, "obs:label"), operators=["closedApr", "stabl"],
                   artificial_features="permutation", **SETTINGS)
    np.testing.assert_array_equal(again.base_models.subsets, base.subsets)
    assert list(again.signatures["closedApr"].names) == list(run.signatures["closedApr"].names)


def test_each_modality_gets_its_own_effect_measure_and_one_family_of_q_values(run, mdata):
    effects = run.effects()
    assert list(effects.columns[:3]) == ["class", "feature", "modality"]
    measures = effects.groupby("modality")["effect_measure"].unique()
    assert list(measures["rna"]) == ["standardized_mean_difference"]  # log values
    assert list(measures["prot"]) == ["log2_fold_change"]  # raw intensities
    y = from_mudata(mdata, "obs:label").y
    for name, adata in mdata.mod.items():  # the oracle: the block alone, by sample ID
        block = adata.to_df().loc[list(mdata.mod["rna"].obs_names)].add_prefix(f"{name}:")
        alone = effect_table(block, y).set_index(["class", "feature"])
        ours = effects[effects.modality == name].set_index(["class", "feature"])
        for column in ("effect_size", "auroc", "p_value"):
            np.testing.assert_allclose(ours[column], alone.loc[ours.index, column],
                                       rtol=1e-12, err_msg=f"{name} {column}")
    for _, part in effects.groupby("class"):  # q-values over every tested feature
        np.testing.assert_allclose(part.q_value, false_discovery_control(part.p_value),
                                   rtol=1e-12)


def test_markers_carry_the_modality_and_the_effects_rows(run, tmp_path):
    markers = run.markers()
    assert "modality" in markers.columns
    effects = run.effects().set_index(["class", "feature"])
    for row in markers.itertuples():
        assert row.modality == row.feature.split(":")[0]
        want = effects.loc[(row._3, row.feature)]
        assert row.effect_measure == want.effect_measure
        assert row.effect_size == pytest.approx(want.effect_size, rel=1e-12)
    run.save(tmp_path / "r", report=False)
    back = mm.MiningRun.load(tmp_path / "r")
    assert back.base_models.modalities == run.base_models.modalities
    pd.testing.assert_frame_equal(back.markers(), markers)
    pd.testing.assert_frame_equal(back.effects(), run.effects(), check_dtype=False)


def _block(base: BaseModels, cols: np.ndarray) -> BaseModels:
    """The base models of one modality's columns alone (its features and their decoys)."""
    ranks = np.argsort(np.argsort(base.ranks[:, cols], axis=1, kind="stable"), axis=1,
                       kind="stable") + 1
    return dataclasses.replace(
        base, subsets=base.subsets[:, cols], ranks=ranks, scores=None,
        feature_names=base.feature_names[cols], full_model=None, extra={},
        artificial_subsets=base.artificial_subsets[:, cols])


def test_stabl_per_modality_is_stabl_on_each_modality_alone(run):
    base = run.base_models
    sig = mm.aggregate(base, "stabl")  # the run's is capped at m (its signature size)
    assert list(run.signatures["stabl"].names) == list(sig.names[:SETTINGS["n_features"]])
    modality = base.feature_modalities()
    expected, per = [], sig.provenance["modalities"]
    for name, _ in base.modalities:
        cols = np.flatnonzero(modality == name)
        alone = mm.aggregate(_block(base, cols), "stabl")
        expected += [str(f) for f in alone.names]
        assert per[name]["threshold"] == alone.provenance["threshold"]
        assert per[name]["fdp_plus"] == alone.provenance["fdp_plus"]
    assert sorted(map(str, sig.names)) == sorted(expected)
    one = mm.aggregate(base, "stabl", per_modality=False)
    assert "modalities" not in one.provenance
    assert one.provenance["threshold"] == mm.aggregate(
        _block(base, np.arange(base.n_features_in)), "stabl").provenance["threshold"]
    single = _block(base, np.arange(base.n_features_in))
    with pytest.raises(ValueError, match="'per_modality' parameter of stabl must be False "
                                         "or None for base models of one block"):
        mm.aggregate(single, "stabl", per_modality=True)


def test_bootstrap_takes_a_mudata_and_its_models_keep_the_blocks(mdata, tmp_path):
    base = mm.bootstrap(mdata, "obs:label", selector="anova", n_bootstraps=4, n_features=5,
                        random_state=0)
    assert base.modalities == (("rna", 60), ("prot", 20))
    base.save(tmp_path / "b.npz")
    assert BaseModels.load(tmp_path / "b.npz").modalities == base.modalities
    assert base.models_of("anova").modalities == base.modalities


def test_groups_by_obs_column_follow_the_joined_samples(mdata):
    small = dict(SETTINGS, n_bootstraps=4, operators=["mostFreq"])
    prot = mdata.mod["prot"]  # its rows in another order than the joined data's
    prot.obs["patient"] = mdata.obs["patient"].loc[list(prot.obs_names)].to_numpy()
    by_column = mm.run(mdata, "obs:label", groups="obs:prot:patient", **small)
    joined = from_mudata(mdata, "obs:label")
    assert list(joined.sample_names) != list(prot.obs_names)
    patients = mdata.obs["patient"].loc[list(joined.sample_names)].to_numpy()
    by_values = mm.run(joined, groups=patients, **small)
    np.testing.assert_array_equal(by_column.base_models.sample_indices,
                                  by_values.base_models.sample_indices)
    with pytest.raises(DataError, match="groups of multi-omic data must hold one value per "
                                        "sample kept"):
        mm.run(mdata, "obs:label", groups=np.zeros(3), **small)


def test_the_command_line_reads_tables_by_modality(mdata, tmp_path, capsys,
                                                   report_page_left_out):
    from modelmine.cli import main

    for name, adata in mdata.mod.items():
        adata.to_df().rename_axis("sample").to_csv(tmp_path / f"{name}.csv",
                                                   float_format="%.17g")
    mdata.obs[["label"]].rename_axis("sample").to_csv(tmp_path / "sheet.csv")
    tables = ["--modality", f"rna={tmp_path / 'rna.csv'}",
              "--modality", f"prot={tmp_path / 'prot.csv'}", "--labels",
              str(tmp_path / "sheet.csv")]
    common = ["-s", "anova", "-b", "12", "-m", "8", "--resampling", "subsample",
              "--sample-fraction", "0.5", "--random-state", "3", "-o", "closedApr",
              "--quiet"]
    assert main(["run", *tables, "--out", str(tmp_path / "b"), *common]) == 0
    got = mm.MiningRun.load(tmp_path / "b")
    ref = mm.run(mdata, "obs:label", operators=["closedApr"], **SETTINGS)
    assert got.base_models.modalities == (("rna", 60), ("prot", 20))
    np.testing.assert_array_equal(got.base_models.subsets, ref.base_models.subsets)
    assert list(got.signatures["closedApr"].names) == list(ref.signatures["closedApr"].names)
    assert got.data["read_options"]["modalities"][0] == f"rna={tmp_path / 'rna.csv'}"
    short = mdata.mod["prot"].to_df().iloc[2:]
    short.rename_axis("sample").to_csv(tmp_path / "prot.csv")
    assert main(["run", *tables, "--out", str(tmp_path / "c"), *common]) == 2
    err = capsys.readouterr().err
    assert "different samples (rna 40, prot 38; 38 in all of them): give --intersect" in err
    assert main(["run", str(tmp_path / "rna.csv"), *tables, *common]) == 2
    assert "without DATA" in capsys.readouterr().err


def test_the_report_shows_every_gene_by_modality_and_the_enrichment_given(run, tmp_path):
    import re

    sets = {"planted_rna": ["rna:G0", "rna:G1", "rna:G2", "rna:G7"],
            "planted_prot": ["prot:P0", "prot:P1"], "noise": ["rna:G40", "rna:G41"]}
    table = run.enrichment(sets)
    page = run.report(tmp_path / "with.html", enrichment=table).read_text(encoding="utf-8")
    volcano = page[page.index('id="volcano"'):page.index('id="enrichment"')]
    effects = run.effects()
    case = effects[effects["class"] == effects["class"].iloc[-1]]
    assert f"{int((case.q_value <= 0.05).sum()):,} pass" in volcano
    for modality, count in (("rna", 60), ("prot", 20)):  # the per-modality table
        assert re.search(rf"<td>{modality}</td><td class=\"num\">{count}</td>", volcano)
    part = page[page.index('id="enrichment"'):]
    assert f"{int((table.q_value <= 0.05).sum())} of {len(table)} rows pass" in part
    assert part.count("<tr>") - 1 >= min(len(table), 25)
    assert 'href="#volcano"' in page and 'href="#enrichment"' in page
    plain = run.report(tmp_path / "without.html").read_text(encoding="utf-8")
    assert 'id="volcano"' in plain and 'id="enrichment"' not in plain
    with pytest.raises(TypeError, match=r"'enrichment' parameter of MiningRun\.report must "
                                        r"be the table of MiningRun\.enrichment"):
        run.report(tmp_path / "bad.html", enrichment=table.drop(columns="universe"))
