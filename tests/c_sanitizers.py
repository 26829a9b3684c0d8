"""Build one of modelmine's C extensions with AddressSanitizer and UndefinedBehaviorSanitizer
and run a child Python on it (``tests/patterns/test_lcm_sanitizers.py``,
``tests/selectors/test_smo_sanitizers.py``). Skips where no C compiler with the sanitizers
is found, fails instead under ``MODELMINE_REQUIRE_SANITIZER=1`` (set in CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest


def _compiler() -> str | None:
    return shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")


def _runtime(cc: str) -> str | None:
    out = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True)
    path = out.stdout.strip()
    return path if path and Path(path).exists() else None


def run_sanitized(source: Path, module: str, child: str, args: list[str],
                  tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``source`` compiled as extension ``module`` with the sanitizers into ``tmp_path``,
    then ``child`` (Python code; ``sys.argv[1]`` is the built file) run with ``args``
    and the ASan runtime preloaded. Returns the finished child."""
    cc = _compiler()
    runtime = _runtime(cc) if cc else None
    if cc is None or runtime is None:
        if os.environ.get("MODELMINE_REQUIRE_SANITIZER") == "1":
            pytest.fail("no C compiler with AddressSanitizer here (MODELMINE_REQUIRE_"
                        "SANITIZER=1)")
        pytest.skip("no C compiler with AddressSanitizer here")
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = tmp_path / f"{module}{suffix}"
    build = subprocess.run(
        [cc, "-shared", "-fPIC", "-O1", "-g", "-fno-omit-frame-pointer",
         "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
         f"-I{sysconfig.get_paths()['include']}", str(source), "-o", str(target)],
        capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    env = {**os.environ, "LD_PRELOAD": runtime,
           # CPython's own allocations are not ours to judge: leaks are not checked.
           "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
           "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}
    script = tmp_path / "child.py"
    script.write_text(child)
    return subprocess.run([sys.executable, str(script), str(target), *args],
                          capture_output=True, text=True, env=env, timeout=600)
