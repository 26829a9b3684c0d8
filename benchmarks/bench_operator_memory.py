"""Benchmark: the peak memory of ``modelmine run`` at large b on a small table (issue 50).

Issue 50 item 4: ``modelmine run`` with the default operators (closedApr, allMed) at
b = 40,000 on a 40 x 20 table passed 3 GiB and was stopped, in allMed's b x b Jaccard
distances, after every fit was spent. The medoid operators now cluster the distinct base
models with their multiplicities as weights (d x d), by CLARA beyond
``KMEDOIDS_EXACT_MAX_MODELS`` distinct models (bounded), and every operator's memory is
estimated before the first fit (a run that would not fit is refused at once).

This script writes a seeded 40 x 20 table (two classes, three informative columns), runs
``modelmine run TABLE -t class -s SELECTOR -b B --out DIR -q`` in a child process for each
b, and records the child's peak resident set size (``ru_maxrss`` of ``os.wait4``: the whole
process, its workers none, since ``--jobs`` is 1), its CPU and wall seconds, its exit
status, and what allMed reports: the distinct base models and how it clustered them. The
selector is anova by default (the fits are not what grows with b; svm-rfe's take about 30
times longer). ``--modelmine PATH`` runs another checkout (for the figures before the fix).

Run: ``nice -n 10 .venv/bin/python benchmarks/bench_operator_memory.py --b 6000 20000 60000
--out benchmarks/results/operator_memory.csv | tee benchmarks/results/operator_memory.log``
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _record import finish, head_commit

ROOT = Path(__file__).resolve().parents[1]


def table(path: Path, n: int = 40, p: int = 20, seed: int = 0) -> Path:
    """A 40 x 20 expression table: two classes, the first three columns shifted by 1."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.arange(n) % 2
    X[:, :3] += y[:, None]
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(p)])
    frame["class"] = np.where(y == 1, "tumour", "normal")
    frame.to_csv(path, index=False)
    return path


def run(data: Path, out: Path, b: int, selector: str, modelmine: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(modelmine)}
    command = [sys.executable, "-m", "modelmine", "run", str(data), "-t", "class", "-s",
               selector, "-b", str(b), "--out", str(out), "--force", "-q"]
    start = time.perf_counter()
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    err = proc.stderr.read() if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    row = {"b": b, "selector": selector, "exit": proc.returncode,
           "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),
           "cpu_s": round(usage.ru_utime + usage.ru_stime, 1), "wall_s": round(seconds, 1),
           "n_distinct_models": None, "allMed": None, "error": ""}
    if proc.returncode != 0:
        row["error"] = " ".join(line for line in err.splitlines()
                                if "error" in line)[:300]
        return row
    record = json.loads((out / "signatures.json").read_text())
    for entry in record["operators"]:
        if entry["operator"] == "allMed":
            prov = entry["result"]["signatures"][0]["provenance"]
            row["n_distinct_models"] = prov.get("n_distinct_models")
            row["allMed"] = "clara" if "kmedoids" in prov else prov.get("backend")
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--b", type=int, nargs="+", default=[6000, 20000, 60000])
    parser.add_argument("--selector", default="anova")
    parser.add_argument("--modelmine", type=Path, default=ROOT,
                        help="the checkout to run (default: this one)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        data = table(Path(tmp) / "t40x20.csv")
        for b in args.b:
            rows.append(run(data, Path(tmp) / f"run{b}", b, args.selector, args.modelmine))
            print(rows[-1], flush=True)
    commit = subprocess.run(["git", "-C", str(args.modelmine), "rev-parse", "--short",
                             "HEAD"], capture_output=True, text=True).stdout.strip()
    finish(rows, args.out, commit or head_commit())


if __name__ == "__main__":
    main()
