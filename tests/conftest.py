"""Shared fixtures: real datasets, loaded once per session."""

from __future__ import annotations

import os

import numpy as np
import pytest
from figures_built import write_nothing as _write_nothing
from shared_data import pytest_runtest_call, pytest_runtest_setup  # noqa: F401 (hooks)

import modelmine as mm

# pytester: the test of the shared-data hooks runs a small suite of its own.
pytest_plugins = ("pytester",)

# Printed so a failing randomised test can be replayed with the same seed.
SEED = int(os.environ.get("MODELMINE_TEST_SEED", "0"))


def pytest_report_header(config):
    return f"modelmine test seed: {SEED} (set MODELMINE_TEST_SEED to change)"


@pytest.fixture(scope="session")
def colon():
    return mm.datasets.load_colon(return_names=True)


@pytest.fixture(scope="session")
def leukemia():
    return mm.datasets.load_leukemia(return_names=True)


@pytest.fixture(scope="session")
def colon_raw():
    """Colon as raw intensities (thousands to tens of thousands), text labels and patient
    ids: (X, labels, feature names, ids)."""
    X, y, names = mm.datasets.load_colon(return_names=True)
    raw = np.round(2.0 ** (X + 12.0))
    ids = np.array([f"P{i:03d}" for i in range(X.shape[0])])
    labels = np.where(y == 1, "normal", "tumour")
    return raw, labels, np.asarray(names, dtype=str), ids


@pytest.fixture(scope="session")
def leukemia_raw_run():
    """A run on leukemia as raw intensities (400 genes, labels ALL / AML, sample names):
    what the report of a microarray user shows (tests/report/test_report_biodata.py and
    the report's helpers in tests/kernels)."""
    X, y, names = mm.datasets.load_leukemia(return_names=True)
    raw = np.round(2.0 ** (X[:, :400] - X[:, :400].min() + 6.0))  # raw intensities
    labels = np.where(y == np.unique(y)[0], "ALL", "AML")
    data = mm.datasets.LoadedData(
        X=raw, y=labels, feature_names=np.asarray(names[:400]), source="leukemia-raw.tsv",
        target="subtype", format="tsv",
        sample_names=np.array([f"GSM{i}" for i in range(72)]))
    return mm.run(data, selector="anova", operators=["closedApr", "allMed"],
                  n_bootstraps=16, n_features=12, n_signatures=4, random_state=7)


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


@pytest.fixture
def wait_for_file():
    """Wait until a child process writes a file (or fail when it dies or times out): how a
    test meets a child at a known moment instead of racing it against a clock."""
    import time

    def wait(path, proc, timeout=300.0):
        deadline = time.monotonic() + timeout
        while not path.exists():
            if proc.poll() is not None:
                pytest.fail(f"the child exited ({proc.returncode}) before writing {path.name}")
            if time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"the child did not write {path.name} in {timeout:.0f} s")
            time.sleep(0.02)

    return wait


@pytest.fixture
def killed_when_written(wait_for_file):
    """Run a Python script in a child (``script`` as ``python -c``, then ``args``), wait
    until it writes ``marker``, and SIGKILL it there: a run killed at a known moment."""
    import os
    import signal
    import subprocess
    import sys

    def kill(script, *args, marker):
        proc = subprocess.Popen([sys.executable, "-c", script, *map(str, args)])
        wait_for_file(marker, proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

    return kill


#: Where figures are rendered: the tests of the report and its figures, of the strings drawn
#: in them, of the single-cell dot plot, of the examples, and any test marked
#: ``@pytest.mark.rendered``. Everywhere else a report's figures are built (every plotting
#: function runs on the test's data) but ``Figure.savefig`` writes nothing: drawing is most of
#: a report's time (a grouped CLI run with its extras: 27 s rendered, 8.5 s not), and the
#: suite must stay under 12 minutes.
RENDERED = ("tests/report/", "tests/cli/test_cli_figures.py",
            "tests/singlecell/", "tests/patterns/test_lattice.py",
            "tests/examples/")
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pytest_configure(config):
    config.addinivalue_line("markers", "rendered: render the figures (Figure.savefig) in "
                                       "this test, as the RENDERED modules do")


def _savefig():
    from matplotlib.figure import Figure

    return Figure.savefig


#: matplotlib's own savefig, before any test replaces it.
_SAVEFIG = _savefig()




def _drawn(node) -> bool:
    where = os.path.relpath(str(node.path), _ROOT).replace(os.sep, "/")
    return where.startswith(RENDERED) or node.get_closest_marker("rendered") is not None


@pytest.fixture(scope="module", autouse=True)
def _module_figures_built_not_drawn(request):
    """The same rule for a module's own fixtures (a run and its report made once for the
    module), which run before any test's fixture: they drew every figure."""
    if _drawn(request.node):
        yield
        return
    from matplotlib.figure import Figure

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Figure, "savefig", _write_nothing)
        yield


@pytest.fixture(autouse=True)
def _figures_built_not_drawn(request, monkeypatch):
    from matplotlib.figure import Figure

    if _drawn(request.node):  # a test marked rendered in a module that draws nothing
        monkeypatch.setattr(Figure, "savefig", _SAVEFIG)
        return
    monkeypatch.setattr(Figure, "savefig", _write_nothing)
