"""Every script in examples/ runs to completion in its fast mode (``--fast --out DIR``).

The gallery of the documentation site runs the same command for its examples
(docs/_ext/gallery_order.py). In CI, ``.ci/run`` builds the site (``make docs``) just before
the suite, from the same checkout, and sets ``MODELMINE_REQUIRE_DOCS=1``: an example the build
ran to its end (sphinx-gallery then writes ``docs/gallery/NAME.py.md5``, the checksum of the
script it ran) is not run a second time here; any other runs.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py"))
GALLERY = EXAMPLES.parent / "docs" / "gallery"


def run_by_the_docs_build(script: Path) -> bool:
    """Whether the docs build of this CI run has just run ``script`` as it is, to its end."""
    if not os.environ.get("MODELMINE_REQUIRE_DOCS"):
        return False
    stamp = GALLERY / f"{script.name}.md5"
    return stamp.is_file() and stamp.read_text().strip() == hashlib.md5(
        script.read_bytes()).hexdigest()


def test_the_examples_directory_holds_the_documented_scripts():
    names = {p.stem for p in SCRIPTS}
    assert {"quickstart", "custom_operator", "plugin_operator", "sklearn_pipeline"} <= names


#: quickstart runs once, in the test below, which checks what this one does and its report;
#: reproduce_kdd12 in tests/evaluation/test_reproduce_script.py, which checks its tables
FAST = [p for p in SCRIPTS if p.stem not in ("quickstart", "reproduce_kdd12")]


@pytest.mark.slow
@pytest.mark.parametrize("script", FAST, ids=[p.stem for p in FAST])
def test_example_runs_in_fast_mode(script, tmp_path):
    if run_by_the_docs_build(script):
        pytest.skip("make docs ran it with the same command from this checkout (CI)")
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


def test_the_docs_build_stands_in_for_an_example_only_as_it_ran(tmp_path, monkeypatch):
    """The CI shortcut above: only with MODELMINE_REQUIRE_DOCS, only for the script the
    gallery ran (its checksum), never for a changed one or one the gallery did not finish."""
    module = sys.modules[__name__]
    script = tmp_path / "example.py"
    script.write_text("print('found it')\n")
    gallery = tmp_path / "gallery"
    gallery.mkdir()
    monkeypatch.setattr(module, "GALLERY", gallery)
    monkeypatch.delenv("MODELMINE_REQUIRE_DOCS", raising=False)
    assert not run_by_the_docs_build(script)
    monkeypatch.setenv("MODELMINE_REQUIRE_DOCS", "1")
    assert not run_by_the_docs_build(script)  # the gallery did not finish it: no stamp
    (gallery / "example.py.md5").write_text(hashlib.md5(script.read_bytes()).hexdigest())
    assert run_by_the_docs_build(script)
    script.write_text("print('found it, changed')\n")
    assert not run_by_the_docs_build(script)
