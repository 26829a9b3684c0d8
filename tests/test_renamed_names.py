"""One name per thing (issue 38, item 5): `sample_weight` / `--sample-weight`,
`max_per_class` / `--max-per-class`, `n_features` / `-m/--n-features`, `sample_fraction` /
`--sample-fraction`. The old names (`weights=`, `max_cells_per_group=`, `panel_size=`;
`--weights`, `--max-cells-per-group`, `--panel-size`, `--fraction`) keep working for one
release: the API with a FutureWarning naming the new keyword, the command line with a note
on stderr naming the new option; the result is the one the new name gives."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import modelmine as mm
import modelmine.spec as spec_module
from modelmine.cli import build_parser
from modelmine.spec import SETTINGS, Integer, Setting, settings_table


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(30, 6)), columns=[f"g{j}" for j in range(6)])
    frame["w"] = np.round(rng.uniform(0.5, 2.0, 30), 3)
    frame["class"] = np.repeat(["a", "b"], 15)
    path = tmp_path_factory.mktemp("renamed") / "t.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_read_data_weights_is_sample_weight_with_a_warning(table):
    path, frame = table
    new = mm.datasets.read_data(path, "class", sample_weight="w")
    np.testing.assert_array_equal(new.sample_weight, frame["w"].to_numpy())
    assert "w" not in list(new.feature_names)
    with pytest.warns(FutureWarning, match=r"read_data\(\): the keyword weights= is "
                                           r"deprecated .* use sample_weight="):
        old = mm.datasets.read_data(path, "class", weights="w")
    np.testing.assert_array_equal(old.sample_weight, new.sample_weight)
    np.testing.assert_array_equal(old.X, new.X)
    with pytest.raises(TypeError, match="both sample_weight= and its old name weights="):
        mm.datasets.read_data(path, "class", sample_weight="w", weights="w")


def _cells():
    anndata = pytest.importorskip("anndata")
    rng = np.random.default_rng(1)
    labels = np.repeat(["x", "y", "z"], 30)
    X = rng.poisson(1.0, (90, 12)).astype(float)
    for k in range(3):
        X[labels == "xyz"[k], 3 * k:3 * k + 3] += 4
    obs = pd.DataFrame({"cl": labels, "w": rng.uniform(0.5, 2, 90)},
                       index=[f"c{i}" for i in range(90)])
    return anndata.AnnData(X=sp.csr_matrix(X), obs=obs,
                           var=pd.DataFrame(index=[f"g{j}" for j in range(12)]))


def test_from_anndata_weights_is_sample_weight_with_a_warning():
    adata = _cells()
    new = mm.datasets.from_anndata(adata, "obs:cl", sample_weight="obs:w")
    np.testing.assert_array_equal(new.sample_weight, adata.obs["w"].to_numpy())
    with pytest.warns(FutureWarning, match="use sample_weight="):
        old = mm.datasets.from_anndata(adata, "obs:cl", weights="obs:w")
    np.testing.assert_array_equal(old.sample_weight, new.sample_weight)


def test_marker_panels_old_keywords_warn_and_give_the_same_panels():
    from modelmine.singlecell import marker_panels

    new = marker_panels(_cells(), "cl", selector="anova", n_bootstraps=4, n_features=3,
                        max_per_class=20)
    assert all(len(p) == 3 for p in new.panels.values())
    with pytest.warns(FutureWarning) as caught:
        old = marker_panels(_cells(), "cl", selector="anova", n_bootstraps=4, panel_size=3,
                            max_cells_per_group=20)
    texts = [str(w.message) for w in caught if w.category is FutureWarning]
    assert any("panel_size=" in t and "use n_features=" in t for t in texts), texts
    assert any("max_cells_per_group=" in t and "use max_per_class=" in t for t in texts)
    assert old.panels == new.panels
    pd.testing.assert_frame_equal(old.table, new.table)
    # the stored settings keep their keys (files as they were)
    assert new.settings["panel_size"] == 3 and new.settings["max_cells_per_group"] == 20
    with pytest.raises(TypeError, match="both n_features= and its old name panel_size="):
        marker_panels(_cells(), "cl", n_features=4, panel_size=3)
    with pytest.raises(ValueError, match="'n_features' parameter of marker_panels"):
        marker_panels(_cells(), "cl", n_features=0)


@pytest.mark.parametrize("command, old, new, value, dest", [
    (["run", "data.csv"], "--weights", "--sample-weight", "w", "weights"),
    (["run", "data.csv"], "--fraction", "--sample-fraction", "0.8", "sample_fraction"),
    (["markers", "c.h5ad", "--groupby", "cl"], "--panel-size", "--n-features", "7",
     "n_features"),
    (["markers", "c.h5ad", "--groupby", "cl"], "--max-cells-per-group", "--max-per-class",
     "30", "max_per_class"),
])
def test_old_options_are_the_new_ones_with_a_note(capsys, command, old, new, value, dest):
    parser = build_parser()
    current = parser.parse_args([*command, new, value])
    assert capsys.readouterr().err == ""
    before = parser.parse_args([*command, old, value])
    err = capsys.readouterr().err
    assert f"{old} is deprecated" in err and f"use {new}" in err, err
    assert vars(before) == vars(current)
    assert str(getattr(current, dest)) == (value if dest == "weights" else
                                           str(type(getattr(current, dest))(value)))
    # the default, when neither is given, is the new option's
    default = parser.parse_args(command)
    assert getattr(default, dest) == {"weights": None, "sample_fraction": None,
                                      "n_features": 10, "max_per_class": 500}[dest]
    # the help names the new option only
    sub = command[0]
    helped = parser._subparsers._group_actions[0].choices[sub].format_help()
    assert new in helped and old not in helped


def test_cli_run_with_old_weights_equals_the_new_option(table, tmp_path, capsys):
    from modelmine.cli import main

    path, _ = table
    runs = {}
    for flag in ("--sample-weight", "--weights"):
        out = tmp_path / flag.strip("-")
        assert main(["run", str(path), "--target", "class", flag, "w", "-s", "anova",
                     "-b", "4", "-m", "3", "-k", "2", "-q", "--out", str(out)]) == 0
        runs[flag] = mm.MiningRun.load(out)
    assert "--weights is deprecated" in capsys.readouterr().err
    a, b = runs["--sample-weight"], runs["--weights"]
    np.testing.assert_array_equal(a.base_models.subsets, b.base_models.subsets)
    assert a.data["read_options"] == b.data["read_options"] == {"weights": "w"}


def test_a_deprecated_flag_of_a_declared_setting_is_derived(monkeypatch, capsys):
    """A setting lists its old spelling in ``Setting.deprecated``: the option, the note and
    the docs' mark follow with no other edit."""
    made_up = Setting("n_widgets", 3, Integer(1), "widgets per resample (a test)",
                      ("--n-widgets", "--widgets"), metavar="W", deprecated=("--widgets",))
    monkeypatch.setattr(spec_module, "SETTINGS", (*SETTINGS, made_up))
    parser = build_parser()
    assert parser.parse_args(["run", "d.csv", "--widgets", "5"]).n_widgets == 5
    assert "--widgets is deprecated and goes in the next release; use --n-widgets" in \
        capsys.readouterr().err
    assert parser.parse_args(["run", "d.csv"]).n_widgets == 3
    with pytest.raises(SystemExit):
        parser.parse_args(["run", "d.csv", "--widgets", "0"])
    assert "`--n-widgets`, `--widgets` (deprecated)" in settings_table()
