"""What modelmine says while it works (issue 52, item 4): ``mm.settings.verbosity`` is the
level of the ``modelmine`` logger; a line as each phase of a run starts (info), each
operator (debug); nothing at 'warning'; lines written by modelmine's own fallback only when
the application configured no logging; the progress bar in a notebook too. The command
line's -v and its default are tested with its runs (tests/cli/test_cli.py,
tests/cli/test_cli_columns.py), -q in tests/cli/test_cli.py."""

from __future__ import annotations

import logging
import sys
import types

import pytest

import modelmine as mm
from modelmine.config import Verbosity

LOGGER = logging.getLogger("modelmine")
PHASES = ["operators: closedApr, mostFreq on the 4 base models",
          "diagnostics: the stability, diversity and agreement of the signatures",
          "effects: every feature's effect, p- and q-value",
          "saving: the run's files",
          "mining: the closed itemsets of the 4 base models at minimum support 0.2"]


@pytest.fixture(autouse=True)
def _verbosity_restored():
    level, handlers = LOGGER.level, list(LOGGER.handlers)
    yield
    LOGGER.setLevel(level)
    LOGGER.handlers[:] = handlers


@pytest.fixture(scope="module")
def data():
    X, y = mm.datasets.load_colon()
    return X[:, :60], y


def test_the_setting_is_the_level_of_the_modelmine_logger():
    assert mm.settings.verbosity == Verbosity.info  # the default: the phase lines
    for given, level in (("warning", logging.WARNING), (3, logging.DEBUG),
                         (Verbosity.error, logging.ERROR), ("INFO", logging.INFO)):
        mm.settings.verbosity = given
        assert LOGGER.level == level and mm.settings.verbosity.level == level
    LOGGER.setLevel(logging.WARNING)  # set through logging: the setting reads it
    assert mm.settings.verbosity == Verbosity.warning and repr(mm.settings) == \
        "Settings(verbosity='warning')"
    for bad in ("loud", 7, 1.5, True, None):
        with pytest.raises(ValueError, match=r"The 'verbosity' parameter of settings must be "
                                             r"a Verbosity, an integer from 0 to 3 or one of"):
            mm.settings.verbosity = bad


def test_a_line_as_each_phase_starts_and_each_operator_at_debug(data, tmp_path, caplog):
    X, y = data
    mm.settings.verbosity = "debug"
    with caplog.at_level(logging.DEBUG):  # what the modelmine logger lets through
        run = mm.run(X, y, selector="anova", n_bootstraps=4, n_features=5,
                     operators=["closedApr", "mostFreq"])
        run.save(tmp_path / "run", report=False)
    ours = [r for r in caplog.records if r.name == "modelmine"]
    assert [r.getMessage() for r in ours if r.levelno == logging.INFO] == PHASES
    assert [r.getMessage() for r in ours if r.levelno == logging.DEBUG] == [
        "operator closedApr (single-model)", "operator mostFreq (single-model)"]
    assert ours[1].levelno == ours[2].levelno == logging.DEBUG  # within the operators phase
    caplog.clear()
    mm.settings.verbosity = "warning"
    with caplog.at_level(logging.DEBUG):
        run.save(tmp_path / "quiet", report=False)
    assert [r for r in caplog.records if r.name == "modelmine"] == []


def test_modelmine_writes_its_lines_only_when_nothing_else_would(monkeypatch, capsys):
    phase = "mining: the closed itemsets"
    # an application that configured no logging (pytest's own handlers set aside)
    monkeypatch.setattr(logging.getLogger(), "handlers", [])
    mm.settings.verbosity = "info"
    LOGGER.info(phase)
    assert capsys.readouterr().err == f"modelmine: {phase}\n"
    mm.settings.verbosity = "warning"
    LOGGER.info(phase)
    assert capsys.readouterr().err == ""
    # in IPython (scanpy's habit): on stdout, which a notebook does not colour as an error
    shell = types.SimpleNamespace(config={})
    monkeypatch.setitem(sys.modules, "IPython",
                        types.SimpleNamespace(get_ipython=lambda: shell))
    mm.settings.verbosity = "info"
    LOGGER.info(phase)
    assert capsys.readouterr() == (f"modelmine: {phase}\n", "")
    # an application with a handler of its own receives the lines there, once
    received: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: received.append(record.getMessage())  # type: ignore
    monkeypatch.setattr(logging.getLogger(), "handlers", [handler])
    LOGGER.info(phase)
    assert received == [phase] and capsys.readouterr() == ("", "")


def test_the_bar_shows_in_a_notebook_at_info(data, monkeypatch, capsys):
    import tqdm.auto  # noqa: F401 (its mode chosen before the kernel below is faked)

    X, y = data
    kernel = types.SimpleNamespace(config={"IPKernelApp": {}})  # as tqdm.autonotebook finds it
    monkeypatch.setitem(sys.modules, "IPython",
                        types.SimpleNamespace(get_ipython=lambda: kernel))
    for verbosity, shown in (("info", True), ("warning", False)):
        mm.settings.verbosity = verbosity
        mm.bootstrap(X, y, selector="anova", n_bootstraps=3, n_features=5)
        assert ("bootstrap anova" in capsys.readouterr().err) is shown, verbosity
