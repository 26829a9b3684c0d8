"""What ``self_sufficient_itemsets(method="swap")`` costs as the base models grow (issue 49).

Rasch-type base models as in ``bench_self_sufficient.py`` (feature frequencies uniform in
[0.1, 0.5], model effects N(0, 0.5)), p = 120 features, b = ``--sizes`` base models: the
null (nothing planted) and a triple of own frequency 0.1 planted in 12 % of the models.
The swap method's defaults (200 randomised matrices, itemsets of 2 to 4 features held by
5 % of the models). Per run: the processor time of the call (``cpu_seconds``, one thread:
the search limits BLAS to one), its wall time, the critical p-values and whether the
triple is reported self-sufficient. A null's search stops as soon as no observed itemset
can pass; with a planted triple every randomised matrix is searched down to the critical
value, the dearer case. For b <= ``--full-up-to`` the critical p-values are also
computed in full (``full_critical_k``: the randomised matrices searched down to them
whatever the observed p-values; the call itself stops as soon as the decisions are known
and reports NaN for the sizes it did not need).

Run: ``nice -n 10 .venv/bin/python -u benchmarks/bench_self_sufficient_cost.py --out
benchmarks/results/self_sufficient_cost.csv > benchmarks/results/self_sufficient_cost.log``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _record import finish, head_commit

from modelmine.diagnostics import self_sufficient_itemsets
from modelmine.diagnostics._productive_swap import (
    CAP,
    FisherTails,
    allowed_at_or_below,
    null_minima,
)
from modelmine.diagnostics._self_sufficient import _sizes_overdispersed, _strata

P = 120
GROUP = [0, 1, 2]


def models(b: int, planted: bool, seed: int) -> np.ndarray:
    rng = np.random.default_rng([seed, b, int(planted), 49])
    f = rng.uniform(0.1, 0.5, P)
    if planted:
        f[GROUP] = 0.1
    c = np.log(f / (1 - f))
    a = rng.normal(0.0, 0.5, b)
    M = rng.random((b, P)) < 1.0 / (1.0 + np.exp(-(a[:, None] + c[None, :])))
    if planted:
        M[np.ix_(rng.choice(b, round(0.12 * b), replace=False), GROUP)] = True
    return M


def full_critical(M: np.ndarray, run: int) -> dict:
    """The critical p-value of each itemset size as ``self_sufficient_itemsets(M,
    random_state=run)`` draws its randomised matrices (defaults: 200 of them, fdr 0.05,
    sizes 2 to 4, 5 % of the models), every matrix searched down to it."""
    b = M.shape[0]
    strata = _strata(M, 4) if _sizes_overdispersed(M) else None
    allowed = allowed_at_or_below(200, 0.05, 3)
    minima, _ = null_minima(M, int(np.ceil(0.05 * b - 1e-9)), 4, FisherTails(b),
                            dict.fromkeys((2, 3, 4), CAP), 200, allowed,
                            np.random.SeedSequence(run), strata)
    kth = np.sort(minima, axis=0)[allowed]
    return {f"full_critical_{k}": float(kth[k - 2]) for k in (2, 3, 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100,300,1000")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--full-up-to", type=int, default=100)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    commit = head_commit()
    rows = []
    for b in [int(v) for v in args.sizes.split(",")]:
        for planted in (False, True):
            for run in range(args.runs):
                M = models(b, planted, run)
                start, cpu = time.perf_counter(), time.process_time()
                table = self_sufficient_itemsets(M, random_state=run)
                found = [tuple(t) for t in table.loc[table["self_sufficient"], "items"]]
                rows.append({"b": b, "p": P, "planted": planted, "run": run,
                             "cpu_seconds": time.process_time() - cpu,
                             "seconds": time.perf_counter() - start,
                             "passes": int(table["passes"].sum()),
                             "triple_found": tuple(GROUP) in found,
                             **{f"critical_{k}": v
                                for k, v in table.attrs["critical_p"].items()}})
                if b <= args.full_up_to:
                    rows[-1].update(full_critical(M, run))
                print(f"# b={b} planted={planted} run={run}: "
                      f"{rows[-1]['cpu_seconds']:.1f} s CPU", flush=True)
    finish(rows, args.out, commit)


if __name__ == "__main__":
    main()
