"""The reproduction script (examples/reproduce_kdd12.py) in its fast CI setting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "reproduce_kdd12.py"


@pytest.mark.slow
def test_fast_setting_writes_tables_beside_published_figures(tmp_path):
    out = tmp_path / "kdd12"
    subprocess.run([sys.executable, str(SCRIPT), "--fast", "--datasets", "colon",
                    "--no-saeys", "--n-jobs", "1", "--out", str(out)],
                   check=True, capture_output=True, text=True, timeout=600)
    table2 = pd.read_csv(out / "table2.csv", index_col="operator")
    # the paper's nine single-model operators, with their published points beside ours
    assert len(table2) == 9 and "closedApr" in table2.index
    assert table2.paper_error_points["closedApr"] == 5.6
    # averaged points of 9 methods: each selector distributes 9 * 8 / 2 = 36 points
    assert table2.error_points.sum() == pytest.approx(36)
    assert table2.stability_points.sum() == pytest.approx(36)
    assert (out / "table2.md").read_text().startswith("# KDD'12 Table 2")
    folds = pd.read_csv(out / "colon_folds.csv")
    assert set(folds.selector) == {"ig", "relieff", "svm-rfe", "svm"}
    assert set(folds.fold) == {0, 1, 2}
