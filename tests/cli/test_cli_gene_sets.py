"""``modelmine run --gene-sets FILE`` (issue 51): enrichment.csv in the run directory, the
report's ``#enrichment`` section read from it (the run, ``--resume DIR --gene-sets`` on a
finished run, ``modelmine report DIR``), equal to ``MiningRun.enrichment`` of the loaded
run."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main


@pytest.fixture
def study(tmp_path):
    rng = np.random.default_rng(5)
    y = np.repeat(["ctrl", "case"], 15)
    X = rng.normal(size=(30, 40))
    X[y == "case", :4] += 1.5
    frame = pd.DataFrame(X, columns=[f"G{j}" for j in range(40)])
    frame.insert(0, "sample", [f"s{i}" for i in range(30)])
    frame["label"] = y
    frame.to_csv(tmp_path / "expr.csv", index=False)
    (tmp_path / "sets.gmt").write_text(
        "UP\tna\tG0\tG1\tG2\tG3\tG30\nNOISE\tna\tG20\tG21\tG22\nOUT\tna\tXYZ\tG5\n",
        encoding="utf-8")
    return tmp_path


def test_gene_sets_reach_the_csv_and_every_report(study, capsys):
    fast = ["-s", "anova", "-b", "6", "-m", "6", "-o", "closedApr", "--quiet",
            "--random-state", "2"]
    out = study / "run"
    assert main(["run", str(study / "expr.csv"), "--target", "label", "--out", str(out),
                 *fast]) == 0
    assert 'id="enrichment"' not in (out / "report.html").read_text(encoding="utf-8")
    # a finished run gains the enrichment later, without refitting
    assert main(["run", "--resume", str(out), "--gene-sets", str(study / "sets.gmt"),
                 "--quiet"]) == 0
    run = mm.MiningRun.load(out)
    want = run.enrichment(study / "sets.gmt")
    got = pd.read_csv(out / "enrichment.csv")
    pd.testing.assert_frame_equal(got[["signature", "gene_set", "overlap", "universe"]],
                                  want[["signature", "gene_set", "overlap", "universe"]])
    np.testing.assert_allclose(got.p_value, want.p_value, rtol=1e-12)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert 'id="enrichment"' in page and 'id="volcano"' in page
    assert f"{want['gene_set'].nunique()} gene sets" in page
    assert main(["report", str(out), "--out", str(study / "again.html")]) == 0
    assert 'id="enrichment"' in (study / "again.html").read_text(encoding="utf-8")
    (out / "enrichment.csv").write_text("signature,p_value\nx,0.1\n", encoding="utf-8")
    assert main(["report", str(out), "--out", str(study / "bad.html")]) == 2
    assert "is not the enrichment.csv of `modelmine run --gene-sets`" in capsys.readouterr().err
