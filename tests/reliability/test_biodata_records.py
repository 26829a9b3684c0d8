"""The fields the biodata options store (issue 13) under the declared schemas (issue 14).

A run with a label file, sample IDs, scaling inside the resamples, stratified subsamples and
a signature size of its own writes run.json, checkpoint.json, base_models.npz, the
bootstrap manifest and expression.csv.gz; every one must load back under its schema, a
killed run must resume with the recorded input options, and a damaged value of a new field
must be refused with a message naming the file and the field.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from reliability_helpers import copy_tree, rewrite_npz, small_frame

import modelmine as mm
from modelmine.cli import main
from modelmine.exceptions import DataError
from modelmine.pipeline import _store

OPTIONS = ["--scale", "standard", "--resampling", "subsample", "--stratify",
           "--signature-size", "3"]
FAST = ["-s", "anova", "-b", "12", "-m", "5", "--seed", "1", "-q"]


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """Expression with a sample-ID column, labels in another file (shuffled, one extra)."""
    root = tmp_path_factory.mktemp("labelled")
    frame = small_frame(n=30, p=12)
    ids = [f"S{i:02d}" for i in range(len(frame))]
    expr = frame.drop(columns="y")
    expr.insert(0, "sample", ids)
    expr.to_csv(root / "expr.csv", index=False)
    groups = frame["y"].map({0: "a", 1: "b"}).tolist()
    labels = pd.DataFrame({"id": [*ids, "S99"], "group": [*groups, "a"]}).sample(
        frac=1.0, random_state=0)
    labels.to_csv(root / "labels.tsv", sep="\t", index=False)
    return root


def _argv(root: Path, out: Path) -> list[str]:
    return ["run", str(root / "expr.csv"), "--labels", str(root / "labels.tsv"),
            "--index-col", "sample", *FAST, *OPTIONS, "--out", str(out)]


@pytest.fixture(scope="module")
def finished(labelled, tmp_path_factory):
    """The run of the biodata options, finished, with its whole report (do not modify)."""
    out = tmp_path_factory.mktemp("finished") / "run"
    assert main(_argv(labelled, out)) == 0
    return out


def test_a_run_with_the_biodata_options_loads_back_under_the_schemas(finished):
    out = finished
    assert (out / "report.html").stat().st_size > 0
    record = json.loads((out / "run.json").read_text())
    assert record["settings"]["scale"] == "standard"
    assert record["settings"]["signature_size"] == 3
    assert record["data"]["read_options"]["index_col"] == "sample"
    run = mm.MiningRun.load(out)
    assert run.base_models.selector["scale"] == "standard"
    assert run.expression is not None and run.expression.shape[0] == 30
    assert list(run.expression.index[:2]) == ["S00", "S01"]
    assert all(len(s.features) == 3 for s in run.signatures.values()
               if isinstance(s, mm.operators.Signature))


def test_a_killed_run_with_the_biodata_options_resumes_identically(
    labelled, tmp_path, monkeypatch, capsys, finished, report_page_left_out
):
    """The resumed run equals the run never interrupted (``finished``: the same command)."""
    import modelmine.pipeline._run as run_module

    def boom(*args, **kwargs):
        raise DataError("operators failed on purpose")

    out = tmp_path / "run"
    with monkeypatch.context() as patch:
        patch.setattr(run_module, "apply_operators", boom)
        assert main(_argv(labelled, out)) == 2
    partial = tmp_path / ".run.partial"
    record = _store.read_checkpoint(partial)  # the checkpoint schema takes the new fields
    assert record["settings"]["scale"] == "standard"
    assert record["data"]["read_options"]["labels"].endswith("labels.tsv")
    manifest = json.loads((partial / "bootstraps" / "manifest.json").read_text())
    assert manifest["settings"]["selector"]["scale"] == "standard"
    capsys.readouterr()
    # Settings cannot change on resume, input options included.
    assert main(["run", "--resume", str(out), "--scale", "minmax"]) == 2
    assert "--scale" in capsys.readouterr().err
    assert main(["run", "--resume", str(out), "-q"]) == 0
    assert mm.BaseModels.load(out) == mm.BaseModels.load(finished)
    pd.testing.assert_frame_equal(mm.MiningRun.load(out).expression,
                                  mm.MiningRun.load(finished).expression)


def _edit_json(path: Path, edit) -> None:
    record = json.loads(path.read_text())
    edit(record)
    path.write_text(json.dumps(record))


@pytest.mark.parametrize("section, key, value, field", [
    ("settings", "scale", "log", "settings.scale"),
    ("settings", "signature_size", 0, "settings.signature_size"),
    ("settings", "signature_size", "3", "settings.signature_size"),
    ("data", "layer", 7, "data.layer"),
    ("data", "labels", ["a"], "data.labels"),
    ("data", "read_options", {"sep": ";"}, "data.read_options"),
    ("data", "read_options", {"transpose": "yes"}, "data.read_options.transpose"),
])
def test_a_damaged_new_field_of_run_json_is_refused(finished, tmp_path, section, key,
                                                    value, field):
    run = copy_tree(finished, tmp_path / "run")
    _edit_json(run / "run.json", lambda r: r[section].__setitem__(key, value))
    with pytest.raises(DataError, match=f"run.json.*{field.replace('.', '[.]')}"):
        mm.MiningRun.load(run)


def test_a_damaged_scale_in_base_models_is_refused(finished, tmp_path):
    run = copy_tree(finished, tmp_path / "run")
    rewrite_npz(run / "base_models.npz",
                lambda arrays, meta: meta["selector"].__setitem__("scale", "log"))
    with pytest.raises(DataError, match=r"selector\.scale"):
        mm.MiningRun.load(run)


def _rewrite_expression(path: Path, edit) -> None:
    frame = pd.read_csv(path, index_col=0, compression="gzip")
    frame = edit(frame)
    with gzip.open(path, "wt") as fh:
        frame.to_csv(fh)


@pytest.mark.parametrize("edit, message", [
    (lambda f: f.iloc[:-1], "rows"),
    (lambda f: f.rename(columns={"class": "label"}), "'class'"),
    (lambda f: f.rename(columns={f.columns[1]: "no_such_gene"}), "no_such_gene"),
    (lambda f: f.assign(**{f.columns[1]: np.nan}), "finite"),
    (lambda f: f.assign(**{f.columns[1]: "x"}), "finite"),
])
def test_a_damaged_expression_file_is_refused(finished, tmp_path, edit, message):
    """Each damage is refused by what it breaks, as in a run written before run.json
    checksummed the file (since issue 50 a changed file is refused by its checksum first:
    test_reliability_round5)."""
    run = copy_tree(finished, tmp_path / "run")
    _edit_json(run / "run.json", lambda r: r.pop("checksums"))
    _rewrite_expression(run / "expression.csv.gz", edit)
    with pytest.raises(DataError, match=message) as info:
        mm.MiningRun.load(run)
    assert "expression.csv.gz" in str(info.value)


def test_a_run_directory_without_expression_still_loads(finished, tmp_path):
    run = copy_tree(finished, tmp_path / "run")
    (run / "expression.csv.gz").unlink()
    assert mm.MiningRun.load(run).expression is None


def test_labels_column_without_labels_exits_2(labelled, tmp_path, capsys):
    argv = ["run", str(labelled / "expr.csv"), "-t", "g0", "--labels-column", "group",
            *FAST, "--out", str(tmp_path / "o")]
    assert main(argv) == 2
    assert "--labels-column" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
