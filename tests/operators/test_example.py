"""The alternative-signatures example runs and prints consistent overlaps."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "alternative_signatures.py"


@pytest.mark.slow
def test_example_fast(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--fast"])
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    assert "closedApr:" in out and "allMed: 4 alternative signatures" in out
    assert out.count("overlap with closedApr") == 4
    mean = float(out.strip().splitlines()[-1].split(":")[-1])
    assert 0.0 <= mean < 1.0
