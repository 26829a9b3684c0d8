"""What every benchmark of this folder does at the end: print its table and, with ``--out``,
write it as CSV and print the commit and the command that made it (docs/ quotes both)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd


def head_commit() -> str:
    """The short hash of the checked-out commit (empty outside a git work tree)."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()


def finish(rows: list[dict], out: str | None, commit: str) -> pd.DataFrame:
    """Print the rows as a table; with ``out``, write the CSV and the provenance line."""
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    if out:
        table.to_csv(out, index=False)
        # the whole command line, --out included, as it was typed
        command = " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]])
        print(f"# commit {commit}; command: .venv/bin/python {command}")
    return table
