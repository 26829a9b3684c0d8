"""The volcano plot: every tested gene at (effect, -log10 p), the signatures' genes marked
and labelled at their own coordinates, the q = 0.05 line where Benjamini-Hochberg puts
it (checked on the figure's artists against the effects table, not on pixels)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import false_discovery_control

from modelmine.diagnostics import effect_table
from modelmine.report import plot_volcano


@pytest.fixture(scope="module")
def effects():
    rng = np.random.default_rng(0)
    y = np.repeat(["ctrl", "case"], 30)
    X = rng.normal(size=(60, 200))
    X[y == "case", :6] += 2.0
    return effect_table(X, y, feature_names=[f"g{j}" for j in range(200)])


def test_every_gene_is_a_point_and_the_marked_ones_sit_at_their_effect(effects):
    marked = {"closedApr": ["g0", "g1", "g2"], "panel": ["g2", "g150"]}
    fig = plot_volcano(effects, marked, cls="case")
    ax = fig.axes[0]
    case = effects[effects["class"] == "case"].set_index("feature")
    background, first, second = ax.collections[:3]
    assert len(background.get_offsets()) == 200
    expected = np.column_stack([case.loc[["g0", "g1", "g2"], "effect_size"],
                                -np.log10(case.loc[["g0", "g1", "g2"], "p_value"])])
    np.testing.assert_allclose(first.get_offsets(), expected)
    # g2 belongs to the first group that names it; the panel keeps g150 only
    np.testing.assert_allclose(second.get_offsets(), [[case.loc["g150", "effect_size"],
                                                       -np.log10(case.loc["g150", "p_value"])]])
    assert sorted(t.get_text() for t in ax.texts) == ["g0", "g1", "g150", "g2"]
    # the dashed line: the smallest -log10 p among the genes with q <= 0.05
    q = false_discovery_control(case.p_value)
    line = min(-np.log10(case.p_value[q <= 0.05]))
    assert any(np.allclose(h.get_ydata(), line) for h in ax.lines)
    assert ax.get_xlabel() == case.effect_measure.iloc[0].replace("_", " ")
    assert "case against the rest" in ax.get_title()


def test_a_class_not_in_the_table_is_refused(effects):
    with pytest.raises(ValueError, match="'cls' parameter of volcano_data must be one of "
                                         "the classes"):
        plot_volcano(effects, {}, cls="tumour")
    outcome = effects[effects["class"] == "case"].drop(columns="class")
    assert isinstance(plot_volcano(pd.DataFrame(outcome), {"s": ["g0"]}).axes[0].texts[0]
                      .get_text(), str)


def test_a_multi_omic_table_gets_one_panel_per_modality_with_its_own_measure():
    rng = np.random.default_rng(1)
    y = np.repeat(["ctrl", "case"], 25)
    rna = 6 + rng.normal(size=(50, 40))
    prot = 1000 + 100 * rng.normal(size=(50, 12))
    prot[y == "case", :2] += 250
    X = np.hstack([rna, prot])
    names = [f"rna:G{j}" for j in range(40)] + [f"prot:P{j}" for j in range(12)]
    effects = effect_table(X, y, feature_names=names, modalities=[("rna", 40), ("prot", 12)])
    fig = plot_volcano(effects, {"sig": ["prot:P0", "rna:G3"]}, cls="case",
                       modalities=["rna", "prot"])
    rna_ax, prot_ax = fig.axes  # in the order asked (the table lists prot's first)
    case = effects[effects["class"] == "case"].set_index("feature")
    for ax, modality, size in ((rna_ax, "rna", 40), (prot_ax, "prot", 12)):
        assert len(ax.collections[0].get_offsets()) == size  # that modality's features
        measure = case[case.modality == modality].effect_measure.iloc[0]
        assert ax.get_xlabel() == measure.replace("_", " ")
        assert ax.get_title().startswith(modality)
    assert rna_ax.get_xlabel() == "standardized mean difference"  # log-scale values
    assert prot_ax.get_xlabel() == "log2 fold change"  # raw intensities
    np.testing.assert_allclose(prot_ax.collections[1].get_offsets(), [[
        case.loc["prot:P0", "effect_size"], -np.log10(case.loc["prot:P0", "p_value"])]])
    assert [t.get_text() for t in prot_ax.texts] == ["prot:P0"]
    assert [t.get_text() for t in rna_ax.texts] == ["rna:G3"]
    # the q line is one: Benjamini-Hochberg over all the features, whatever the modality
    q = false_discovery_control(case.p_value)
    if (q <= 0.05).any():
        line = min(-np.log10(case.p_value[q <= 0.05]))
        assert all(any(np.allclose(h.get_ydata(), line) for h in ax.lines) for ax in fig.axes)
