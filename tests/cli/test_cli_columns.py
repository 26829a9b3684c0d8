"""--keep-columns patterns and the statement of the values and their scaling (issue 26,
item 4): the features kept are those the patterns name (checked against fnmatch), and a run
of raw intensities says so, with the scaling the selector applies."""

from __future__ import annotations

import fnmatch
import json

import numpy as np
import pandas as pd

import modelmine as mm
from modelmine.cli import main


def _table(tmp_path):
    X, y = mm.datasets.load_colon()[:2]
    raw = np.round(2.0 ** (np.asarray(X)[:, :30] + 12.0))  # intensities in the thousands
    frame = pd.DataFrame(raw, columns=[f"ENSG{j:05d}" if j % 3 else f"AFFX-{j}"
                                       for j in range(30)])
    frame["age"] = np.arange(len(y)) % 50 + 20
    frame["class"] = y
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_keep_columns_keeps_the_matching_features(tmp_path, capsys, report_page_left_out):
    path, frame = _table(tmp_path)
    out = tmp_path / "run"
    assert main(["run", str(path), "--target", "class", "--keep-columns", "ENSG*", "-s",
                 "anova", "-b", "4", "-m", "5", "--out", str(out)]) == 0
    printed = capsys.readouterr()
    run = mm.MiningRun.load(out)
    want = [c for c in frame.columns if fnmatch.fnmatchcase(c, "ENSG*")]
    assert list(run.base_models.feature_names) == want
    record = json.loads((out / "run.json").read_text())
    assert record["data"]["read_options"]["keep_columns"] == ["ENSG*"]
    # raw intensities are named as such, with the scaling the selector applies
    assert run.data["values"].startswith("raw intensities or counts")
    assert "values: raw intensities" in printed.out
    assert "scaling: none" in printed.out
    # the command's default verbosity (info): the phase lines on stderr, not each operator
    assert "modelmine: operators: closedApr, allMed on the 4 base models" in printed.err
    assert "modelmine: operator " not in printed.err
    # the scaling svm applies, stated by the run (the pipeline's words, which the CLI
    # records as they are: the run above): the API on the same columns
    kept = mm.datasets.read_data(path, "class", keep_columns=["ENSG*"])
    svm = mm.run(kept, selector="svm", operators=["mostFreq"], n_bootstraps=4, n_features=5,
                 progress=False)
    assert "[0, 1] inside each resample by svm" in svm.data["scaling"]


def test_keep_columns_refusals(tmp_path, capsys):
    path, _ = _table(tmp_path)
    assert main(["run", str(path), "--target", "class", "--keep-columns", "ENSG*",
                 "--keep-columns", "RP11-*", "-s", "anova", "-b", "4", "-m", "5", "--out",
                 str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "--keep-columns 'RP11-*' matches no feature column" in err
    # an embedded dataset is not a table: the table options are refused, never ignored
    for option in (["--keep-columns", "x1*"], ["--drop", "x1"], ["--transpose"]):
        assert main(["run", "embedded:colon", *option, "-s", "anova", "-b", "4", "--out",
                     str(tmp_path / "y")]) == 2
        err = capsys.readouterr().err
        assert f"{option[0]} does not apply to the embedded dataset" in err
