"""How long ``make docs`` takes: cold, cached, and with one gallery example changed.

The build of docs/conf.py (issue 52, item 1) on a copy of the checkout's tracked files (and
its compiled kernels), so that the checkout's own ``docs/_build`` cache is left alone:

- ``cold``: nothing built yet, as on a fresh clone or in CI; every gallery example runs;
- ``cached``: the same command again, nothing changed (sphinx-gallery runs no example,
  Sphinx reads no page);
- ``one example changed``: a comment appended to one example, which alone runs again.

Each row gives the wall time and the CPU time of the build (its process and children), the
pages written, the examples run, and the load average of the machine when it started (the
machine is shared: a wall time is only as good as its load).

    python benchmarks/bench_docs_build.py [--jobs 2] [--out benchmarks/results/docs_build.csv]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _record import finish, head_commit

ROOT = Path(__file__).resolve().parents[1]
CHANGED = "examples/kdd12_tables.py"


def copy_checkout(to: Path) -> None:
    """The tracked files and the compiled kernels of the checkout, into ``to``."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    files += [str(p.relative_to(ROOT)) for p in (ROOT / "modelmine").rglob("*.so")]
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            target = to / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def build(tree: Path, jobs: int) -> dict:
    """One ``make docs`` build of ``tree``: wall and CPU seconds, pages, examples run."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = dict(os.environ, MODELMINE_DOCS_JOBS=str(jobs), PYTHONPATH=str(tree))
    env.pop("MODELMINE_DATA_HOME", None)  # a clone made anywhere: no shared data
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-j",
                           str(jobs), "-b", "html", "docs", "docs/_build/html"], cwd=tree,
                          capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"the build failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    ran = re.search(r"executed (\d+) out of (\d+) file", proc.stdout)
    kept = re.search(r"excluding (\d+) files? that had previously been run", proc.stdout)
    html = tree / "docs" / "_build" / "html"
    pages = [p for p in html.rglob("*.html")
             if p.relative_to(html).parts[0] not in ("_static", "_sources", "_images")]
    return {"wall_s": round(wall, 1),
            "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime
                           - before.ru_stime, 1),
            "html_pages": len(pages),
            "api_pages": sum(p.parent.name == "generated" for p in pages),
            "gallery_examples": (int(ran.group(2)) if ran else 0)
                                + (int(kept.group(1)) if kept else 0),
            "examples_run": int(ran.group(1)) if ran else 0,
            "load_average": round(load, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="sphinx -j, as make docs")
    parser.add_argument("--out", default=None, help="CSV of the rows")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="mm-docs-") as folder:
        tree = Path(folder)
        copy_checkout(tree)
        for name in ("cold", "cached", "one example changed"):
            if name == "one example changed":
                with open(tree / CHANGED, "a", encoding="utf-8") as handle:
                    handle.write("# changed by benchmarks/bench_docs_build.py\n")
            rows.append({"build": name, "jobs": args.jobs, **build(tree, args.jobs)})
            print(rows[-1], flush=True)
    finish(rows, args.out, head_commit())
    return 0


if __name__ == "__main__":
    sys.exit(main())
