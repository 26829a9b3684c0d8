"""Helpers of the reliability tests (imported by the test modules and the conftest)."""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
from pathlib import Path

import numpy as np
import pandas as pd
from figures_built import write_nothing as _write_nothing
from matplotlib.figure import Figure

from modelmine.base_models import _base_models
from modelmine.cli import main

#: A fast run of the command line: 12 bootstraps of ANOVA in chunks of 10 (two chunks).
FAST = ["-s", "anova", "-b", "12", "-m", "5", "--seed", "1", "-q"]


@contextlib.contextmanager
def no_hang(seconds: int):
    """Fail with TimeoutError after ``seconds`` instead of blocking the suite (a hang)."""
    def alarm(signum, frame):
        raise TimeoutError(f"no answer after {seconds} s: a hang")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


#: matplotlib's own ``Figure.savefig``, taken when the tests are collected: before the
#: fixtures of tests/conftest.py replace it in the tests that build figures without drawing.
_SAVEFIG = Figure.savefig




@contextlib.contextmanager
def figures(*, drawn: bool):
    """Inside the block, figures are drawn (matplotlib's ``Figure.savefig``) or only built
    (``savefig`` writes an empty file), whatever the test's rule (tests/conftest.py
    RENDERED): a test whose report is built, not drawn, draws a lattice for real; a
    session fixture, set up before that rule applies, builds its report without drawing."""
    current = Figure.savefig
    Figure.savefig = _SAVEFIG if drawn else _write_nothing
    try:
        yield
    finally:
        Figure.savefig = current


#: The page :func:`leave_report_page_out` writes as report.html.
STUB_PAGE = "<!DOCTYPE html>\n<title>report page left out by this test</title>\n"


def leave_report_page_out(patch) -> None:
    """With ``patch`` (a pytest MonkeyPatch), the run report's page is :data:`STUB_PAGE`:
    its sections and figures are not built (tests/reliability/conftest.py,
    ``report_page_left_out``)."""
    from modelmine.report import _html

    patch.setattr(_html, "render", lambda page, figures_dir=None: STUB_PAGE)


def small_frame(n: int = 30, p: int = 12, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.normal(size=(n, p)), columns=[f"g{j}" for j in range(p)])
    frame["y"] = np.arange(n) % 2
    frame.iloc[:, 0] += frame["y"] * 2  # one informative feature
    return frame


def copy_tree(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest, symlinks=True)
    return dest


def rewrite_npz(path: Path, edit, *, checksum: bool = True) -> None:
    """Load a BaseModels file's arrays and record, let ``edit(arrays, meta)`` change them,
    and save them again, with a valid checksum unless ``checksum`` is False: what a
    well-formed file with wrong content looks like."""
    with np.load(path, allow_pickle=False) as arch:
        arrays = {k: arch[k] for k in arch.files}
    meta = json.loads(str(arrays.pop("meta")))
    old = meta.pop("sha256", None)
    edit(arrays, meta)
    version = meta.get("format_version")
    new = isinstance(version, int) and version >= 2
    if checksum and new:
        meta["sha256"] = _base_models._checksum(meta, arrays)
    elif old is not None and "sha256" not in meta and new:
        meta["sha256"] = old
    arrays["meta"] = np.array(json.dumps(meta))
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def bad(argv, capsys, *patterns) -> str:
    """Run the command line; it must exit 2 with one error line on stderr holding the
    patterns (warnings about the data may come before it: --quiet never hides them)."""
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert code == 2, err
    errors = [line for line in lines(err) if ": warning: " not in line
              and not line.startswith("CAUTION:")]
    assert len(errors) == 1, err
    assert "Traceback" not in err
    for pattern in patterns:
        assert pattern in err, err
    return err
