"""Fixtures of the reliability tests: a small dataset, finished and interrupted runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability_helpers import FAST, figures, small_frame

import modelmine as mm
from modelmine.cli import main


@pytest.fixture(scope="session")
def data_csv(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("data") / "small.csv"
    small_frame().to_csv(path, index=False)
    return path


@pytest.fixture(scope="session")
def finished_run(tmp_path_factory, data_csv) -> Path:
    """A finished run directory of ``modelmine run`` (do not modify: copy it). Its report's
    figures are built, not drawn, whichever module asks first (a session fixture is set up
    before the rule of tests/conftest.py applies)."""
    out = tmp_path_factory.mktemp("finished") / "run"
    with figures(drawn=False):
        assert main(["run", str(data_csv), "-t", "y", *FAST, "-k", "3", "--out",
                     str(out)]) == 0
    return out


@pytest.fixture(scope="session")
def interrupted_run(tmp_path_factory, data_csv) -> Path:
    """The ``.DIR.partial`` of a run that stopped after its bootstraps (do not modify)."""
    import modelmine.pipeline._run as run_module

    out = tmp_path_factory.mktemp("interrupted") / "run"
    real = run_module.apply_operators

    def boom(*args, **kwargs):
        raise mm.exceptions.DataError("operators failed on purpose")

    run_module.apply_operators = boom
    try:
        assert main(["run", str(data_csv), "-t", "y", *FAST, "--out", str(out)]) == 2
    finally:
        run_module.apply_operators = real
    partial = out.parent / ".run.partial"
    assert (partial / "checkpoint.json").exists()
    return partial
