"""Fixtures of the reliability tests: a small dataset, finished and interrupted runs, and
the report's page left out of the tests that never read it."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability_helpers import FAST, figures, leave_report_page_out, small_frame

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


@pytest.fixture
def report_page_left_out(monkeypatch):
    """The run report's page (its sections and figures: about 3 of the 3.5 CPU-s of a
    small ``modelmine run``) replaced by a one-line page, for the tests of run
    directories, locks, file modes, refusals and resumes, which never read it. Every
    writer still writes report.html, through the same atomic write. The page of such runs
    is built by ``finished_run``, by the resumed run of test_reliability_defects, by the
    biodata options' run of test_biodata_records, by the tests here that read a report,
    and in tests/report and tests/cli."""
    leave_report_page_out(monkeypatch)
