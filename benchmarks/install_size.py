"""Disk size of a base install of modelmine and of the full one (every extra the README's
`make` set-up installs), measured in the current environment.

Walks the requirement closure of the installed ``modelmine`` distribution with
importlib.metadata (markers evaluated for this interpreter) and adds up the files each
distribution recorded at install. Run it in the environment `make install` made:

    .venv/bin/python benchmarks/install_size.py

The figures in the README ("Install weight") come from here; its output, with the commit and
the command, is committed as ``benchmarks/results/install_size.log``.
"""

from __future__ import annotations

import contextlib
import importlib.metadata as md
import re
from pathlib import Path

from packaging.requirements import Requirement

BASE: tuple[str, ...] = ()
FULL = ("kmedoids", "fasterpam", "parquet", "distributed", "anndata")
# Extras reported on their own: what each adds to a base install.
ON_TOP = ("survival", "singlecell")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def closure(extras: tuple[str, ...]) -> set[str]:
    """Names of the distributions ``modelmine[extras]`` needs (modelmine included)."""
    seen: set[str] = set()
    visited: set[tuple[str, tuple[str, ...]]] = set()
    todo: list[tuple[str, tuple[str, ...]]] = [("modelmine", extras)]
    while todo:
        name, wanted = todo.pop()
        if (_norm(name), wanted) in visited:
            continue
        visited.add((_norm(name), wanted))
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            continue
        seen.add(_norm(dist.metadata["Name"]))
        envs = [{"extra": e} for e in wanted] or [{"extra": ""}]
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or any(req.marker.evaluate(env) for env in envs):
                todo.append((req.name, tuple(sorted(req.extras))))
    return seen


def size(names: set[str]) -> int:
    total = 0
    for dist in md.distributions():
        if _norm(dist.metadata["Name"]) in names:
            for f in dist.files or []:
                with contextlib.suppress(OSError):
                    total += Path(f.locate()).stat().st_size
    return total


def main() -> None:
    base, full = closure(BASE), closure(FULL)
    mb = 1024 * 1024
    print(f"base install: {len(base)} distributions, {size(base) / mb:.0f} MiB")
    print(f"full install: {len(full)} distributions, {size(full) / mb:.0f} MiB")
    print("only in the full one:", ", ".join(sorted(full - base)))
    for extra in ON_TOP:
        added = closure((extra,)) - base
        largest = sorted(added, key=lambda name: size({name}), reverse=True)[:3]
        print(f"[{extra}] on top of the base: {len(added)} distributions, "
              f"{size(added) / mb:.0f} MiB; largest: "
              + ", ".join(f"{name} {size({name}) / mb:.0f} MiB" for name in largest))


if __name__ == "__main__":
    main()
