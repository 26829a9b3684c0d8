"""Benchmark: does ``self_sufficient_itemsets`` find what is co-selected, and only that?
(issue 49, item 4)

Base models are drawn from a Rasch-type model: model i selects feature j with probability
``logistic(a_i + c_j)``, independently, with the features' frequencies ``logistic(c_j)``
uniform in [0.1, 0.5] and model effects ``a_i ~ N(0, --sigma)`` (model sizes vary), b = 100,
p = 120. ``planted``: a triple of features of their own frequency ``--f0`` is selected
together in ``round(rate * b)`` models chosen at random (``--rates``), on top of their
independent selections. Null models without any co-selection:

- ``rasch``: the Rasch model above, nothing planted (sigma 0.5), and ``rasch-strong``
  (sigma 0.8: model sizes from a few to most of the features);
- ``fixed-m``: every model takes exactly m = 36 features, the m largest of
  ``c_j + Gumbel noise`` (a top-m selector whose scores are independent across features:
  Plackett-Luce sampling without replacement, frequencies about 0.1-0.5; not a Rasch
  model);
- ``slopes``: not a Rasch model either: each feature responds to the model's size effect
  with its own slope, ``logistic(d_j a_i + c_j)``, ``d_j ~ U(0, 2)``, sigma 0.8 (Birnbaum's
  two-parameter model): independent given the size effect, but features that respond
  strongly to size are selected together in the large models;
- ``colon``: a real selector on real data with no dependence between the genes: the 2,000
  genes of colon each permuted independently across the 62 samples, the labels permuted,
  ANOVA F top 20 on 100 bootstraps (``mm.bootstrap``).

Methods: ``swap`` (``self_sufficient_itemsets(method="swap")``, its defaults, ``--strata``
bins of model size for the randomisation), ``productive`` (``method="holdout"``: the
committed ``self_sufficient_*`` CSVs before the swap method call it so) and ``split``
(``itemset_significance``'s held-out family, 200 randomisations, the default before).
A discovery passes at q <= 0.05. Per run: the number tested, the discoveries, the false
discoveries V (any discovery under a null; under ``planted`` an itemset that is not two or
more of the planted features), whether the planted triple itself passes (``exact``), is
reported self-sufficient (``power``), and whether only a strict superset of it passes
(``superset_only``); ``oracle_p`` is the productivity p-value of the planted triple on all
the b models (Fisher, no strata): the best a test that knew the triple could do; for
``swap``, ``critical_2`` .. ``critical_4`` are each itemset size's critical p-value (the
triple passes when its p-value is below ``critical_3``) and ``n_strata`` the bins used;
``seconds`` is the wall time of the call, ``cpu_seconds`` its processor time.

``--explain-colon RUNS`` prints, for those ``colon`` runs, the correlation in the permuted
data of every pair of genes in what they found.

Run: ``nice -n 10 .venv/bin/python -u benchmarks/bench_self_sufficient.py --out
benchmarks/results/self_sufficient.csv > benchmarks/results/self_sufficient.log`` (the log
is the printed output); ``--runs 5`` for a quick look. Runs go seed by seed across the
designs; ``--minutes M`` starts no new seed after M minutes (every design then has the same
seeds 0 .. n - 1, and ``--runs n`` reproduces the CSV); ``--first F`` starts at seed F
(more seeds for a design, in a CSV of their own).
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
import pandas as pd
from _record import finish, head_commit

from modelmine.diagnostics import itemset_significance, self_sufficient_itemsets
from modelmine.diagnostics._self_sufficient import productivity_pvalue

P = 120
B = 100
GROUP = (0, 1, 2)
Q = 0.05


def rasch_models(rng: np.random.Generator, sigma: float, f0: float | None,
                 rate: float) -> np.ndarray:
    f = rng.uniform(0.1, 0.5, P)
    if f0 is not None:
        f[list(GROUP)] = f0
    c = np.log(f / (1 - f))
    a = rng.normal(0.0, sigma, B)
    M = rng.random((B, P)) < 1.0 / (1.0 + np.exp(-(a[:, None] + c[None, :])))
    if rate > 0:
        M[np.ix_(rng.choice(B, round(rate * B), replace=False), list(GROUP))] = True
    return M


def fixed_m_models(rng: np.random.Generator, m: int = 36) -> np.ndarray:
    f = rng.uniform(0.1, 0.5, P)
    keys = np.log(f / (1 - f))[None, :] + rng.gumbel(size=(B, P))
    M = np.zeros((B, P), bool)
    np.put_along_axis(M, np.argsort(-keys, axis=1)[:, :m], True, axis=1)
    return M


def slopes_models(rng: np.random.Generator, sigma: float = 0.8) -> np.ndarray:
    """Not a Rasch model: model i takes feature j with probability ``logistic(d_j a_i +
    c_j)``, each feature's response ``d_j ~ U(0, 2)`` to the model's size effect ``a_i ~
    N(0, sigma)`` its own (Birnbaum's two-parameter model), frequencies ``logistic(c_j)``
    uniform in [0.1, 0.5]. Given a model's size effect the features are independent (no
    co-selection), but the models' sizes no longer summarise it: features that respond
    strongly to size are selected together in the large models."""
    f = rng.uniform(0.1, 0.5, P)
    c = np.log(f / (1 - f))
    d = rng.uniform(0.0, 2.0, P)
    a = rng.normal(0.0, sigma, B)
    return rng.random((B, P)) < 1.0 / (1.0 + np.exp(-(a[:, None] * d[None, :] + c[None, :])))


_COLON: tuple[np.ndarray, np.ndarray] | None = None


def colon_models(rng: np.random.Generator, run: int) -> np.ndarray:
    import modelmine as mm

    global _COLON
    if _COLON is None:
        X, y = mm.datasets.load_colon()
        _COLON = (np.asarray(X, dtype=np.float64), np.asarray(y))
    X, y = _COLON
    Xp = np.column_stack([rng.permutation(X[:, j]) for j in range(X.shape[1])])
    base = mm.bootstrap(Xp, rng.permutation(y), selector="anova", n_bootstraps=B,
                        n_features=20, random_state=run)
    return np.asarray(base.subsets, dtype=bool)


SCENARIOS = ("rasch", "rasch-strong", "fixed-m", "colon", "planted", "slopes")


def draw(scenario: str, f0: float, rate: float, run: int, sigma: float = 0.5) -> np.ndarray:
    """The base models of one run of one design, seeded by the design and the run only."""
    key = [run, SCENARIOS.index(scenario), 0 if np.isnan(f0) else round(1000 * f0),
           round(1000 * rate), 49]
    rng = np.random.default_rng(key)
    if scenario == "colon":
        return colon_models(rng, run)
    if scenario == "fixed-m":
        return fixed_m_models(rng)
    if scenario == "slopes":
        return slopes_models(rng)
    if scenario == "planted":
        return rasch_models(rng, sigma, f0, rate)
    return rasch_models(rng, 0.8 if scenario == "rasch-strong" else sigma, None, 0.0)


def explain_colon(runs: list[int]) -> None:
    """For ``colon`` runs with discoveries: each discovered itemset's pairs' absolute
    correlation in that run's permuted data, and the fraction of the pairs of genes ever
    selected in the run whose correlation is smaller (is the co-selection a chance
    correlation that the independent permutations left in this one data set?)."""
    import modelmine as mm

    for run in runs:
        rng = np.random.default_rng([run, SCENARIOS.index("colon"), 0, 0, 49])
        X, y = mm.datasets.load_colon()
        X = np.asarray(X, dtype=np.float64)
        Xp = np.column_stack([rng.permutation(X[:, j]) for j in range(X.shape[1])])
        base = mm.bootstrap(Xp, rng.permutation(np.asarray(y)), selector="anova",
                            n_bootstraps=B, n_features=20, random_state=run)
        M = np.asarray(base.subsets, dtype=bool)
        table = self_sufficient_itemsets(M, method="holdout", random_state=run)
        used = np.flatnonzero(M.any(axis=0))
        r = np.abs(np.corrcoef(Xp[:, used].T)[np.triu_indices(used.size, 1)])
        for items in table.loc[table["q_value"] <= Q, "items"]:
            for i, j in itertools.combinations(items, 2):
                rij = abs(float(np.corrcoef(Xp[:, i], Xp[:, j])[0, 1]))
                print(f"run {run}: genes {i}, {j}: |r| = {rij:.2f}, above "
                      f"{(r < rij).mean():.4f} of the {r.size:,} pairs of selected genes",
                      flush=True)


def judge(table: pd.DataFrame, planted: bool) -> dict:
    found = table[table["q_value"] <= Q]
    group = set(GROUP)
    sets = [set(t) for t in found["items"]]
    inside = [planted and len(s) >= 2 and s <= group for s in sets]
    V = sum(1 for ok in inside if not ok)
    exact = planted and any(s == group for s in sets)
    if planted and "self_sufficient" in table:
        ss = [set(t) for t in table.loc[table["self_sufficient"], "items"]]
        power = any(s == group for s in ss)
    else:
        power = exact
    return {"tested": len(table), "discoveries": len(found), "false_discoveries": V,
            "fdp": V / max(1, len(found)), "exact": exact, "power": power,
            "superset_only": planted and not exact and any(s > group for s in sets)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="the first seed (run) drawn")
    ap.add_argument("--scenarios", default="rasch,rasch-strong,fixed-m,colon,planted")
    ap.add_argument("--methods", default="productive,split")
    ap.add_argument("--f0", default="0.05,0.1,0.2")
    ap.add_argument("--rates", default="0.12,0.25")
    ap.add_argument("--sigma", type=float, default=0.5)
    ap.add_argument("--randomizations", type=int, default=200)
    ap.add_argument("--strata", default="auto", help='swap: n_strata ("auto" or bins)')
    ap.add_argument("--out", default=None)
    ap.add_argument("--minutes", type=float, default=None,
                    help="start no new run after this wall time (every design keeps the "
                         "same runs)")
    ap.add_argument("--explain-colon", default=None,
                    help="comma-separated colon runs: the correlation of what they found")
    args = ap.parse_args()
    commit = head_commit()
    if args.explain_colon:
        print(f"# commit {commit}")
        explain_colon([int(r) for r in args.explain_colon.split(",")])
        return
    designs = []
    for scenario in args.scenarios.split(","):
        if scenario == "planted":
            designs += [(scenario, float(f0), float(r)) for f0 in args.f0.split(",")
                        for r in args.rates.split(",")]
        else:
            designs.append((scenario, np.nan, 0.0))
    rows = []
    started = time.perf_counter()
    # run by run across the designs, so that a run stopped by --minutes has the same
    # seeds 0 .. n - 1 in every design
    for run in range(args.first, args.first + args.runs):
        for scenario, f0, rate in designs:
            rows += measure(scenario, f0, rate, run, args)
        print(f"# run {run} done in every design "
              f"({(time.perf_counter() - started) / 60:.1f} min)", flush=True)
        if args.out:  # what is done so far, should the process be stopped
            pd.DataFrame(rows).to_csv(args.out, index=False)
        if args.minutes and time.perf_counter() - started > 60 * args.minutes \
                and run + 1 < args.first + args.runs:
            print(f"# stopped after runs {args.first} to {run} of each design (--minutes "
                  f"{args.minutes:g})", flush=True)
            break
    table = finish(rows, args.out, commit)
    print(summary(table).to_string(index=False, float_format=lambda v: f"{v:.3f}"))


def measure(scenario: str, f0: float, rate: float, run: int, args: argparse.Namespace
            ) -> list[dict]:
    """One run of one design: its base models, then each method's verdicts (``judge``)."""
    M = draw(scenario, f0, rate, run, args.sigma)
    planted = scenario == "planted"
    oracle = (productivity_pvalue(M, GROUP)["p_value"] if planted else np.nan)
    rows = []
    for method in args.methods.split(","):
        start, cpu = time.perf_counter(), time.process_time()
        extra = {}
        if method == "productive":
            table = self_sufficient_itemsets(M, method="holdout", random_state=run)
        elif method == "swap":
            strata = args.strata if args.strata == "auto" else int(args.strata)
            table = self_sufficient_itemsets(M, method="swap", n_strata=strata,
                                             random_state=run)
            extra = {"n_strata": table.attrs["n_strata"],
                     **{f"critical_{k}": v for k, v in table.attrs["critical_p"].items()}}
        else:
            table = itemset_significance(M, n_randomizations=args.randomizations,
                                         random_state=run)
        rows.append({"scenario": scenario, "f0": f0, "rate": rate, "run": run,
                     "method": method, **judge(table, planted), "oracle_p": oracle,
                     "group_support": float(M[:, list(GROUP)].all(axis=1).mean())
                     if planted else np.nan,
                     "seconds": time.perf_counter() - start,
                     "cpu_seconds": time.process_time() - cpu, **extra})
    return rows


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Over runs: FDR (mean FDP) and P(V > 0), power (planted triple reported
    self-sufficient), exact and superset-only rates, the oracle's power at 0.05, each
    proportion with its Monte-Carlo standard error."""
    out = []
    keys = ["scenario", "f0", "rate", "method"]
    for key, g in table.groupby(keys, sort=False, dropna=False):
        n = len(g)

        def se(x: float, n: int = n) -> float:
            return float(np.sqrt(x * (1 - x) / n))

        power = float(g["power"].mean())
        oracle = float((g["oracle_p"] <= 0.05).mean()) if g["oracle_p"].notna().any() \
            else np.nan
        out.append({**dict(zip(keys, key)), "runs": n, "tested": g["tested"].mean(),
                    "FDR": g["fdp"].mean(), "FDR SE": g["fdp"].std(ddof=1) / np.sqrt(n),
                    "P(V>0)": float((g["false_discoveries"] > 0).mean()),
                    "power": power, "power SE": se(power),
                    "exact": float(g["exact"].mean()),
                    "superset only": float(g["superset_only"].mean()),
                    "oracle power": oracle, "s/run": g["seconds"].mean(),
                    "cpu s/run": g["cpu_seconds"].mean() if "cpu_seconds" in g
                    else np.nan})
    return pd.DataFrame(out)


if __name__ == "__main__":
    main()
