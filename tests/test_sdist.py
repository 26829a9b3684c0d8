"""The source distribution can be tested: ``python -m build --sdist`` ships every tracked
file of the suite (its conftest.py files and data) and of what the tests read beside the
package (docs, examples, benchmarks and their results, results, the example plugin) (issue
52: the sdist held the top-level test modules only, without their conftest or data).

The oracle is git: every file it tracks under those folders is in the archive.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: What the tests need besides the package, as tracked in the repository.
NEEDED = ("tests", "docs", "examples", "benchmarks", "results", "plugins", "modelmine",
          "Makefile", "README.md", "LICENSE", "pyproject.toml", "MANIFEST.in")


def _tracked(*paths: str) -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist): no list of tracked files to "
                    "hold the archive to")
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--", *paths],
                         capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


@pytest.mark.slow
def test_the_sdist_ships_the_suite_its_conftests_and_data(tmp_path):
    pytest.importorskip("build", reason="python -m build is not installed (the dev extra)")
    tracked = _tracked(*NEEDED)
    # built from a copy of the tracked files, as from a fresh clone: in the checkout, the
    # SOURCES.txt an earlier build left in modelmine.egg-info would add its files
    source = tmp_path / "clone"
    for name in _tracked():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation",
                    "--outdir", str(tmp_path), str(source)], check=True, capture_output=True)
    (archive,) = tmp_path.glob("modelmine-*.tar.gz")
    with tarfile.open(archive) as tar:
        shipped = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    missing = sorted(set(tracked) - shipped)
    assert missing == [], f"{len(missing)} tracked files not in the sdist: {missing[:10]}"
    conftests = [f for f in tracked if f.endswith("conftest.py")]
    assert len(conftests) >= 4 and set(conftests) <= shipped
    assert not [f for f in shipped if "__pycache__" in f or f.endswith((".pyc", ".so"))]
