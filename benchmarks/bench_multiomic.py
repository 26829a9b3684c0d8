"""Benchmark: base models across the modalities or per modality, and Stabl's reliability
threshold per block, on a simulated two-block design with planted features in both blocks
(issue 51, item 4; docs/biology.md, "Multi-omic data").

The design (``simulate``; one draw of new data per seed, the truth always the same):

- ``rna``: 2,000 transcripts as counts-like values, log-normal: ``exp(mu_j + s_j z)`` with
  ``mu_j`` uniform in [2, 8] (values from about 7 to 3,000) and ``s_j`` in [0.3, 1.0];
  the first 10 planted (``z`` shifted by 0.8 in the second class);
- ``prot``: 100 proteins, Gaussian: means uniform in [4, 8], standard deviations in
  [0.5, 1.5]; the first 5 planted, shifted by ``d`` of their standard deviation, with
  ``d`` = 1.2 (scenario ``prot-stronger``: the small block's signal stronger than the big
  block's) or 0.6 (``prot-weaker``);
- n = 100 samples, 50 per class; every other feature independent noise.

The readings, on the same seed (the same resamples: a resample depends on the seed, its
index and the labels only, never on the columns):

- ``across, one threshold``: the selector on the 2,100 joined features (modelmine's
  multi-omic door, ``mm.bootstrap`` on the mapping ``{"rna": ..., "prot": ...}``), then
  ``stabl`` with one reliability threshold over all of them (``per_modality=False``);
- ``across, threshold per modality``: the same base models, ``stabl`` with one threshold
  per modality (the operator's default on multi-omic base models): FDP+ on each block's
  features and their own artificial copies;
- ``per modality``: the selector on each block alone (its own base models, its own
  artificial copies, its own threshold) and the union of what passes: the Stabl package's
  multi-omic pipeline (Hedou et al., Nature Biotechnology 2024, Methods;
  ``stabl/multi_omic_pipelines.py`` fits Stabl on each omic and merges the selected
  features), composed here from the public API.

Selectors (``CONFIGS``): ``l1-logistic`` z-scored inside each resample (``scale=
"standard"``: Stabl's Lasso on standardised data), the same on the values as they are
(``l1-logistic-raw``: a scale-sensitive selector meeting two scales), and ``svm-rfe``
(modelmine's default for classes; it scales each resample to [0, 1] itself). Resampling:
b = 50 subsamples of half the samples (Stabl's), m = 20 (a cap for ``l1-logistic``),
permuted decoys (``artificial_features="permutation"``).

Per seed, scenario, selector, reading and block: the features selected, how many are
planted (``true``) and not (``false``), the block's threshold and FDP+ estimate, the mean
selection frequency of the block's planted and of its other features, and the CPU seconds
of the base models the reading needs. The summary adds the union a user gets (block
``both``) and gives the mean recall of the planted features, the false positives, the
false discovery rate (false / selected, 0 when nothing is selected, averaged over the
seeds) and the share of seeds in which no planted feature of the block is found
(``missed``: the small block drowned), each with its standard error over the seeds.
Seeds per selector (``SEEDS``): 30 for ``l1-logistic``, 10 for ``l1-logistic-raw``, 8 for
``svm-rfe`` (five times the time).

Run (about 25 minutes on two shared cores; 44 minutes at a load of 12 on two cores)::

    nice -n 10 /work/main/.venv/bin/python benchmarks/bench_multiomic.py \\
        --out benchmarks/results/multiomic.csv | tee benchmarks/results/multiomic.log

``--from-csv CSV`` fits nothing: it prints the summary and the paired comparisons (each
reading minus the one before it, seed by seed) of a CSV the script wrote
(``benchmarks/results/multiomic_summary.log``).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from _record import finish, head_commit

import modelmine as mm

#: block -> (features, planted: the first ones).
BLOCKS = {"rna": (2000, 10), "prot": (100, 5)}
#: scenario -> the planted shift of each block (in standard deviations of its noise).
SCENARIOS = {"prot-stronger": {"rna": 0.8, "prot": 1.2},
             "prot-weaker": {"rna": 0.8, "prot": 0.6}}
#: name -> (selector, scale inside each resample).
CONFIGS = {"l1-logistic": ("l1-logistic", "standard"),
           "l1-logistic-raw": ("l1-logistic", "none"),
           "svm-rfe": ("svm-rfe", "none")}
#: seeds per configuration: what about 25 minutes on two shared cores allows (svm-rfe
#: takes about five times l1-logistic's time).
SEEDS = {"l1-logistic": 30, "l1-logistic-raw": 10, "svm-rfe": 8}
READINGS = ("across, one threshold", "across, threshold per modality", "per modality")
N_SAMPLES, N_BOOTSTRAPS, M = 100, 50, 20


def simulate(scenario: str, seed: int) -> tuple[dict[str, pd.DataFrame], pd.Series]:
    """The two blocks (samples x features, indexed by sample ID) and the labels."""
    rng = np.random.default_rng(seed)
    shift = SCENARIOS[scenario]
    n = N_SAMPLES
    y = np.repeat([0, 1], n // 2)
    ids = pd.Index([f"S{i:03d}" for i in range(n)], name="sample")
    (p_rna, k_rna), (p_prot, k_prot) = BLOCKS["rna"], BLOCKS["prot"]
    z = rng.standard_normal((n, p_rna))
    z[:, :k_rna] += shift["rna"] * y[:, None]
    rna = np.exp(rng.uniform(2, 8, p_rna) + rng.uniform(0.3, 1.0, p_rna) * z)
    w = rng.standard_normal((n, p_prot))
    w[:, :k_prot] += shift["prot"] * y[:, None]
    prot = rng.uniform(4, 8, p_prot) + rng.uniform(0.5, 1.5, p_prot) * w
    tables = {"rna": pd.DataFrame(rna, index=ids, columns=[f"G{j}" for j in range(p_rna)]),
              "prot": pd.DataFrame(prot, index=ids, columns=[f"P{j}" for j in range(p_prot)])}
    return tables, pd.Series(y, index=ids, name="label")


def planted(block: str) -> set[str]:
    """The planted features of a block, named as a multi-omic run names them."""
    letter = "G" if block == "rna" else "P"
    return {f"{block}:{letter}{j}" for j in range(BLOCKS[block][1])}


def settings(config: str, seed: int) -> dict:
    selector, scale = CONFIGS[config]
    return dict(selector=selector, scale=scale, n_bootstraps=N_BOOTSTRAPS, n_features=M,
                resampling="subsample", sample_fraction=0.5,
                artificial_features="permutation", fit_full=False, random_state=seed,
                n_jobs=1, progress=False)


def _row(key: dict, reading: str, block: str, names: list[str], threshold: float,
         fdp: float, frequencies: np.ndarray, seconds: float) -> dict:
    """One block's row: what was selected, and the block's selection frequencies (the
    block's features in column order, its planted ones first)."""
    mine = sorted(f for f in names if f.startswith(block + ":"))
    true = sum(f in planted(block) for f in mine)
    k = BLOCKS[block][1]
    return {**key, "reading": reading, "block": block, "planted": k,
            "selected": len(mine), "true": true, "false": len(mine) - true,
            "threshold": round(threshold, 2), "fdp_plus": round(fdp, 6),
            "planted_frequency": round(float(frequencies[:k].mean()), 6),
            "null_frequency": round(float(frequencies[k:].mean()), 6),
            "features": ";".join(mine), "cpu_seconds": round(seconds, 2)}


def across(scenario: str, config: str, seed: int) -> list[dict]:
    """Readings (a) and (b): one set of base models on the joined blocks."""
    tables, y = simulate(scenario, seed)
    key = {"scenario": scenario, "config": config, "seed": seed}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # liblinear's convergence on raw values
        start = time.process_time()
        base = mm.bootstrap(tables, y, **settings(config, seed))
        seconds = time.process_time() - start
        one = mm.aggregate(base, "stabl", per_modality=False)
        split = mm.aggregate(base, "stabl")
    frequency = base.subsets.mean(axis=0)
    modality = base.feature_modalities()
    rows = []
    for reading, sig in ((READINGS[0], one), (READINGS[1], split)):
        for block in BLOCKS:
            record = (sig.provenance if reading == READINGS[0]
                      else sig.provenance["modalities"][block])
            rows.append(_row(key, reading, block, [str(f) for f in sig.names],
                             record["threshold"], record["fdp_plus"],
                             frequency[modality == block], seconds))
    return rows


def per_modality(scenario: str, config: str, seed: int, block: str) -> dict:
    """Reading (c) for one block: the selector on that block alone, its own threshold."""
    tables, y = simulate(scenario, seed)
    key = {"scenario": scenario, "config": config, "seed": seed}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.process_time()
        base = mm.bootstrap(tables[block], y.to_numpy(), **settings(config, seed))
        seconds = time.process_time() - start
        sig = mm.aggregate(base, "stabl")
    return _row(key, READINGS[2], block, [f"{block}:{f}" for f in sig.names],
                sig.provenance["threshold"], sig.provenance["fdp_plus"],
                base.subsets.mean(axis=0), seconds)


def with_union(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of each block and, as block ``both``, the union a user gets: the counts
    added, the CPU seconds of the base models the reading needs (the joined blocks' once,
    or each block's)."""
    keys = ["scenario", "config", "seed", "reading"]
    union = table.groupby(keys, sort=False).agg(
        planted=("planted", "sum"), selected=("selected", "sum"), true=("true", "sum"),
        false=("false", "sum"), cpu_seconds=("cpu_seconds", "max")).reset_index()
    alone = union["reading"] == READINGS[2]
    union.loc[alone, "cpu_seconds"] = table[table["reading"] == READINGS[2]].groupby(
        keys, sort=False)["cpu_seconds"].sum().to_numpy()
    return pd.concat([table, union.assign(block="both")], ignore_index=True)


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, selector, reading and block (and ``both``): the recall of the planted
    features, the false positives, the false discovery rate (false / selected, 0 when
    nothing is selected, averaged over the seeds) and the share of seeds without any
    planted feature of the block (``missed``), each with its standard error over the
    seeds; the mean FDP+ estimate and the mean selection frequency of the block's planted
    and other features."""
    t = with_union(table)
    t = t.assign(recall=t["true"] / t["planted"],
                 fdr=np.where(t["selected"] > 0, t["false"] / t["selected"].clip(lower=1),
                              0.0),
                 missed=(t["true"] == 0).astype(float))
    keys = ["scenario", "config", "reading", "block"]
    out = []
    for key, part in t.groupby(keys, sort=False):
        row = dict(zip(keys, key, strict=True))
        row["seeds"] = len(part)
        for column in ("recall", "false", "fdr", "missed"):
            row[column] = part[column].mean()
            row[f"{column}_se"] = part[column].std(ddof=1) / np.sqrt(len(part))
        for column in ("selected", "fdp_plus", "planted_frequency", "null_frequency",
                       "cpu_seconds"):
            row[column] = part[column].mean()
        out.append(row)
    return pd.DataFrame(out)


#: The paired comparisons: (reading, reading it is compared with).
COMPARISONS = ((READINGS[1], READINGS[0]), (READINGS[2], READINGS[1]))


def paired(table: pd.DataFrame) -> pd.DataFrame:
    """Per selector, scenario and block (and ``both``), each comparison's mean difference
    of recall and of the false discovery rate over the seeds, with its paired standard
    error (the readings of one seed share its data and resamples)."""
    t = with_union(table)
    t = t.assign(recall=t["true"] / t["planted"],
                 fdr=np.where(t["selected"] > 0, t["false"] / t["selected"].clip(lower=1),
                              0.0))
    out = []
    for (config, scenario, block), part in t.groupby(["config", "scenario", "block"],
                                                     sort=False):
        wide = part.pivot(index="seed", columns="reading", values=["recall", "fdr"])
        for reading, other in COMPARISONS:
            row = {"config": config, "scenario": scenario, "block": block,
                   "difference": f"{reading} - {other}", "seeds": len(wide)}
            for column in ("recall", "fdr"):
                d = wide[column][reading] - wide[column][other]
                row[column] = d.mean()
                row[f"{column}_se"] = d.std(ddof=1) / np.sqrt(len(d))
            out.append(row)
    return pd.DataFrame(out)


def report(table: pd.DataFrame) -> None:
    """Print the summary and the paired comparisons."""
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        print(summary(table).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        print()
        print(paired(table).to_string(index=False, float_format=lambda v: f"{v:.4f}"))


def measure(scenario: str, config: str, seed: int) -> list[dict]:
    """Every row of one seed, scenario and selector."""
    rows = across(scenario, config, seed)
    return rows + [per_modality(scenario, config, seed, block) for block in BLOCKS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", nargs="+", default=[f"{k}={v}" for k, v in SEEDS.items()],
                        help="CONFIG=N: the seeds 0..N-1 of each selector configuration")
    parser.add_argument("--out", default=None)
    parser.add_argument("--from-csv", default=None, metavar="CSV",
                        help="fit nothing: print the summary and the paired comparisons of "
                        "a CSV this script wrote")
    args = parser.parse_args()
    commit = head_commit()
    if args.from_csv:
        report(pd.read_csv(args.from_csv))
        command = " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]])
        print(f"# commit {commit}; command: .venv/bin/python {command}")
        return
    start = time.time()
    rows: list[dict] = []
    seeds = {}
    for text in args.seeds:
        config, _, count = text.partition("=")
        if config not in CONFIGS or not count.isdigit():
            parser.error(f"--seeds takes CONFIG=N with CONFIG one of {list(CONFIGS)}; "
                         f"got {text!r}")
        seeds[config] = int(count)
    for config, count in seeds.items():
        for seed in range(count):
            for scenario in SCENARIOS:
                rows += measure(scenario, config, seed)
            print(f"# {config} seed {seed} done ({time.time() - start:.0f} s)", flush=True)
    table = finish(rows, args.out, commit)
    print()
    report(table)
    print(f"# {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
