"""The alternative-signatures example runs and prints consistent overlaps."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "alternative_signatures.py"


@pytest.mark.slow
def test_example_fast(capsys):
    module = runpy.run_path(str(EXAMPLE))
    module["main"](["--fast"])
    out = capsys.readouterr().out
    assert "closedApr:" in out and "allMed: 4 alternative signatures" in out
    assert out.count("overlap with closedApr") == 4
    mean = float(out.strip().splitlines()[-1].split(":")[-1])
    assert 0.0 <= mean < 1.0
