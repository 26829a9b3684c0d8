"""Benchmark: how much power can *any* search of the triples have for a planted triple?
(issue 49, item 4)

``self_sufficient_itemsets(method="swap")`` finds a triple of features selected together in
12 of 100 base models in 95 % of the runs when the triple's features are selected in 10 %
of the models on their own, but in 31 % when they are selected in 20 %
(``benchmarks/results/self_sufficient_swap_planted.log``). This script asks whether that is
a weakness of its statistic (the productivity p-value: the worst of the triple's splits) or
the limit of what the base models hold. It searches the same base models (the Rasch-type
design of ``bench_self_sufficient.py``: b = 100, p = 120, feature frequencies uniform in
[0.1, 0.5], model effects N(0, 0.5), a triple of own frequency ``--f0`` added to
``round(rate * b)`` models) with four statistics of a triple S held by t models, each
calibrated the same way, and counts how often the planted triple beats the critical value:

- ``productive``: the productivity p-value of ``method="swap"`` (the largest one-sided
  Fisher p-value over the three splits of S; Webb, Machine Learning 68, 2007, section 5);
- ``poisson``: the support against independence given the margins: ``P(N >= t)``, N
  Poisson with mean ``sum_i pi_iS``, ``pi_iS`` the product over S of the Rasch model's
  probabilities fitted to the models' sizes and the features' frequencies (its sufficient
  statistics: the maximum-likelihood fit, the same for every randomised matrix);
- ``likelihood ratio``: the log likelihood ratio of "S is added to a fraction rho of the
  models" against independence, ``sum_{i holds S} log(1 - rho + rho / pi_iS) + (b - t)
  log(1 - rho)``, with the planted rate rho *known* (Neyman and Pearson: the most powerful
  test of S alone at any level, given the fitted pi): the best statistic a search could use
  here, and one no user could (rho is unknown);
- ``oracle``: that likelihood ratio with the true probabilities of the models without the
  plant (the design's own a_i and c_j, which no user knows either): what the search could
  do if the margins were not inflated by the plant itself.

Calibration (every statistic alike, triples held by at least 5 models, the method's
``min_support=0.05``): ``--randomizations`` R matrices with the observed margins, drawn by
the same exchangeable swap construction as the method (``_productive_swap.randomised``:
Besag and Clifford's parallel chain of global curveball sweeps); each keeps its best triple
under each statistic, and the planted triple passes at family-wise level ``--level`` when
at most ``a`` randomised matrices have a best triple at least as extreme, ``(1 + a) / (1 +
R) <= level``. The family is the triples only, at the whole level (the method shares it
among the sizes 2-4): more favourable to every statistic than the method is.

Run: ``nice -n 10 .venv/bin/python -u benchmarks/bench_coselect_limit.py --runs 16 --out
benchmarks/results/coselect_limit.csv > benchmarks/results/coselect_limit.log``.
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
from _record import finish, head_commit
from scipy.special import expit, pdtrc

from modelmine.diagnostics._productive_swap import (
    FisherTails,
    allowed_at_or_below,
    randomised,
)

P = 120
B = 100
MIN_COUNT = 5
TRIPLES = np.array(list(itertools.combinations(range(P), 3)))
PLANTED = int(np.flatnonzero((TRIPLES == (0, 1, 2)).all(axis=1))[0])
STATS = ("productive", "poisson", "likelihood ratio", "oracle")


def rasch_fit(M: np.ndarray, iterations: int = 500) -> np.ndarray:
    """The Rasch model's probabilities ``logistic(a_i + c_j)`` whose row and column sums
    equal those of ``M`` (the maximum-likelihood fit: alternating Newton steps). Rows or
    columns that are all 0 or all 1 get probabilities 0 or 1."""
    r = M.sum(axis=1).astype(float)
    k = M.sum(axis=0).astype(float)
    b, p = M.shape
    a = np.log((r + 0.5) / (p - r + 0.5))
    c = np.log((k + 0.5) / (b - k + 0.5))
    for _ in range(iterations):
        pr = expit(a[:, None] + c[None, :])
        c += (k - pr.sum(axis=0)) / np.maximum((pr * (1 - pr)).sum(axis=0), 1e-12)
        pr = expit(a[:, None] + c[None, :])
        step = (r - pr.sum(axis=1)) / np.maximum((pr * (1 - pr)).sum(axis=1), 1e-12)
        a += step
        if np.abs(step).max() < 1e-10:
            break
    pr = expit(a[:, None] + c[None, :])
    pr[r == 0], pr[r == p] = 0.0, 1.0
    pr[:, k == 0], pr[:, k == b] = 0.0, 1.0
    return pr


def triple_product(A: np.ndarray) -> np.ndarray:
    """``A[:, i] * A[:, j] * A[:, k]`` for every triple (models x triples, float32)."""
    A = A.astype(np.float32)
    return A[:, TRIPLES[:, 0]] * A[:, TRIPLES[:, 1]] * A[:, TRIPLES[:, 2]]


class Scores:
    """The four statistics of every triple of a matrix with fixed margins, as scores
    (larger: more significant; ``-inf`` for triples held by fewer than MIN_COUNT)."""

    def __init__(self, M: np.ndarray, truth: np.ndarray, rho: float) -> None:
        fitted = rasch_fit(M)
        pi = np.clip(triple_product(fitted), 1e-300, 1.0)
        self.mu = pi.sum(axis=0, dtype=np.float64)
        self.w = np.log1p(-rho + rho / pi).astype(np.float32)
        pi_true = np.clip(triple_product(truth), 1e-300, 1.0)
        self.w_true = np.log1p(-rho + rho / pi_true).astype(np.float32)
        self.rest = np.log1p(-rho)
        self.tails = FisherTails(M.shape[0])

    def __call__(self, M: np.ndarray) -> dict[str, np.ndarray]:
        X = triple_product(M)  # 0/1: the model holds the triple
        t = np.rint(X.sum(axis=0, dtype=np.float64)).astype(np.int64)
        ok = t >= MIN_COUNT
        Mf = M.astype(np.float64)
        c1 = M.sum(axis=0).astype(np.int64)
        c2 = np.rint(Mf.T @ Mf).astype(np.int64)
        i, j, k = TRIPLES.T
        worst = np.zeros(t.size)
        for (u, v), w in (((i, j), k), ((i, k), j), ((j, k), i)):
            worst = np.maximum(worst, self.tails.sf(t, c2[u, v], c1[w]))
        rest = (B - t) * self.rest
        out = {
            "productive": -np.log(worst),
            "poisson": -np.log(np.maximum(pdtrc(t - 1, self.mu), 1e-300)),
            "likelihood ratio": (X * self.w).sum(axis=0, dtype=np.float64) + rest,
            "oracle": (X * self.w_true).sum(axis=0, dtype=np.float64) + rest,
        }
        return {s: np.where(ok, v, -np.inf) for s, v in out.items()}


def draw(run: int, f0: float, rate: float) -> tuple[np.ndarray, np.ndarray]:
    """Run ``run``'s base models (b x p, the triple 0, 1, 2 planted) and the design's
    probabilities of the models without the plant."""
    rng = np.random.default_rng([run, 49])
    f = rng.uniform(0.1, 0.5, P)
    f[:3] = f0
    a = rng.normal(0.0, 0.5, B)
    truth = expit(a[:, None] + np.log(f / (1 - f))[None, :])
    M = rng.random((B, P)) < truth
    M[np.ix_(rng.choice(B, round(rate * B), replace=False), [0, 1, 2])] = True
    if not M.any(axis=0).all():  # randomised() leaves out features selected nowhere
        raise RuntimeError(f"run {run}: a feature is selected in no model")
    return M, truth


def one_run(run: int, f0: float, rate: float, R: int, level: float) -> list[dict]:
    M, truth = draw(run, f0, rate)
    start = time.process_time()
    scores = Scores(M, truth, rate)
    observed = scores(M)
    best = {s: [] for s in STATS}
    for other in randomised(M, R, np.random.SeedSequence([run, 4949])):
        for s, v in scores(other).items():
            best[s].append(v.max())
    allowed = allowed_at_or_below(R, level, 1)
    rows = []
    for s in STATS:
        mine = observed[s][PLANTED]
        beaten = int(np.sum(np.asarray(best[s]) >= mine))
        rows.append({"f0": f0, "rate": rate, "run": run, "statistic": s,
                     "count": int(M[:, :3].all(axis=1).sum()),
                     "score": mine, "rank": int(np.sum(observed[s] > mine)) + 1,
                     "critical": float(np.sort(best[s])[::-1][allowed]),
                     "randomised_at_least": beaten, "passes": beaten <= allowed,
                     "cpu_seconds": time.process_time() - start})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=16)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--f0", default="0.1,0.2")
    ap.add_argument("--rates", default="0.12")
    ap.add_argument("--randomizations", type=int, default=59)
    ap.add_argument("--level", type=float, default=0.05)
    ap.add_argument("--minutes", type=float, default=None)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    commit = head_commit()
    t0 = time.time()
    designs = [(float(f), float(r)) for f in args.f0.split(",") for r in args.rates.split(",")]
    rows: list[dict] = []
    for run in range(args.first, args.first + args.runs):
        if args.minutes is not None and time.time() - t0 > 60 * args.minutes:
            print(f"# stopped after {run - args.first} runs of each design (--minutes "
                  f"{args.minutes})")
            break
        for f0, rate in designs:
            rows += one_run(run, f0, rate, args.randomizations, args.level)
        print(f"# run {run} done in every design ({(time.time() - t0) / 60:.1f} min)",
              flush=True)
    table = finish(rows, args.out, commit)
    summary = (table.groupby(["f0", "rate", "statistic"], sort=False)
               .agg(runs=("passes", "size"), power=("passes", "mean"),
                    top1=("rank", lambda r: float(np.mean(np.asarray(r) == 1))),
                    median_rank=("rank", "median"))
               .reset_index())
    summary["power SE"] = np.sqrt(summary["power"] * (1 - summary["power"])
                                  / summary["runs"])
    print(summary.to_string(index=False, float_format=lambda v: f"{v:.3f}"))


if __name__ == "__main__":
    main()
