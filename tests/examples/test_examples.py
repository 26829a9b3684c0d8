"""Every script in examples/ runs to completion in its fast mode (``--fast --out DIR``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py"))


def test_the_examples_directory_holds_the_documented_scripts():
    names = {p.stem for p in SCRIPTS}
    assert {"quickstart", "custom_operator", "plugin_operator", "sklearn_pipeline"} <= names


#: quickstart runs once, in the test below, which checks what this one does and its report;
#: reproduce_kdd12 in tests/evaluation/test_reproduce_script.py, which checks its tables
FAST = [p for p in SCRIPTS if p.stem not in ("quickstart", "reproduce_kdd12")]


@pytest.mark.slow
@pytest.mark.parametrize("script", FAST, ids=[p.stem for p in FAST])
def test_example_runs_in_fast_mode(script, tmp_path):
    out = tmp_path / "out"
    env = dict(os.environ, MPLBACKEND="Agg")
    proc = subprocess.run([sys.executable, str(script), "--fast", "--out", str(out)],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip(), "an example must tell its reader what it found"
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_quickstart_leaves_a_report_a_new_user_can_open(tmp_path):
    out = tmp_path / "demo"
    proc = subprocess.run([sys.executable, str(EXAMPLES / "quickstart.py"), "--fast",
                           "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "closedApr" in page and "<img" in page
    for needle in ("Most frequently selected genes", "Stability of anova", "report.html"):
        assert needle in proc.stdout
