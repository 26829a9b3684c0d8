"""How long the command line takes to answer, and what it imports (issue 52, item 4).

Each command runs in a fresh interpreter ``--repeats`` times, in turn with the other
commands and source trees, with the source tree first on ``PYTHONPATH``; the table gives the
median, the fastest and the slowest wall-clock time, and, from one more run under
``python -X importtime``, the number of modules imported, which of the scientific stack
(numpy, scipy, scikit-learn, pandas, networkx, pyarrow, matplotlib) they include and the
import time of the largest top-level imports. The trees are this checkout (``after``) and,
with ``--before REF``, the commit REF extracted beside it (``git archive``; the compiled
kernels copied from this checkout, as a worktree gets them).

The commands: ``python -m modelmine --help`` and ``--version`` (what must answer at once),
``python -c "import modelmine"``, and ``python -m modelmine run --help`` (a subcommand's
help lists the registered selectors and operators, plugins included, so it loads them).

Run: ``nice -n 10 .venv/bin/python benchmarks/bench_cli_startup.py --before main
--out benchmarks/results/cli_startup.csv | tee benchmarks/results/cli_startup.log``.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _record import finish, head_commit

ROOT = Path(__file__).resolve().parent.parent

#: What --help and --version must not import (issue 52).
STACK = ("numpy", "scipy", "sklearn", "pandas", "networkx", "pyarrow", "matplotlib")

COMMANDS = {
    "modelmine --help": ["-m", "modelmine", "--help"],
    "modelmine --version": ["-m", "modelmine", "--version"],
    "import modelmine": ["-c", "import modelmine"],
    "modelmine run --help": ["-m", "modelmine", "run", "--help"],
}


def _env(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    return env


def _time(tree: Path, args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=_env(tree), cwd=tree, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _importtime(tree: Path, args: list[str]) -> tuple[list[str], list[tuple[str, float]]]:
    """The modules a run imports, and the top-level imports by cumulative time (s)."""
    out = subprocess.run([sys.executable, "-X", "importtime", *args], env=_env(tree),
                         cwd=tree, check=True, capture_output=True, text=True).stderr
    modules, top = [], []
    for line in out.splitlines():
        found = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)", line)
        if not found:
            continue
        modules.append(found.group(4))
        if not found.group(3):  # imported at the top (the command, the start-up), not by a module
            top.append((found.group(4), int(found.group(2)) / 1e6))
    return modules, sorted(top, key=lambda t: -t[1])


def _extract(ref: str, where: Path) -> tuple[Path, str]:
    """The tree of ``ref`` under ``where``, with this checkout's compiled kernels."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", ref],
                            capture_output=True, text=True, check=True).stdout.strip()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    for so in (ROOT / "modelmine").rglob("*.so"):
        target = where / so.relative_to(ROOT)
        if target.parent.exists():
            shutil.copy2(so, target)
    return where, commit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9, help="runs per command and tree")
    parser.add_argument("--before", metavar="REF", default=None,
                        help="also measure this commit (e.g. main) for comparison")
    parser.add_argument("--out", default=None, help="write the table as CSV")
    args = parser.parse_args()

    print(f"modelmine CLI start-up, {platform.machine()}, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d')}; load before: {os.getloadavg()}")
    commit = head_commit()  # the checkout measured (commit before running)
    trees = [("after", ROOT, commit)]
    scratch = tempfile.TemporaryDirectory()
    if args.before:
        tree, before = _extract(args.before, Path(scratch.name))
        trees.insert(0, ("before", tree, before))
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.repeats):  # interleaved, so that a load change hits every row
        for label, tree, _commit in trees:
            for name, command in COMMANDS.items():
                times.setdefault((label, name), []).append(_time(tree, command))
    rows = []
    for label, tree, measured in trees:
        for name, command in COMMANDS.items():
            modules, top = _importtime(tree, command)
            loaded = [m for m in STACK if m in modules]
            spent = times[(label, name)]
            rows.append({
                "tree": label, "commit": measured, "command": name, "repeats": len(spent),
                "median_s": round(statistics.median(spent), 3),
                "min_s": round(min(spent), 3), "max_s": round(max(spent), 3),
                "modules": len(modules), "stack_imported": " ".join(loaded) or "none",
                "largest_imports": "; ".join(f"{m} {s:.3f} s" for m, s in top[:4]),
            })
    scratch.cleanup()
    finish(rows, args.out, commit)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
