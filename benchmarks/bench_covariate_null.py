"""Calibration of the permutation null with covariates (issue 49, item 5; docs/outcomes.md).

Data under the null with known truth: n = 80 samples, covariates age (normal) and sex
(binary) that drive the outcome; p = 20 genes, the first 10 following age (x = age +
noise: confounded, no effect of their own), the last 10 noise. Regression: y = age +
0.8 sex + N(0, 1), selector ``pearson``; classification: P(class 1) = expit(1.5 age +
0.8 sex - 0.4), selector ``anova`` (each with ``covariates=[age, sex]``, b = 10 subsamples
of half the samples, m = 3). No gene has an effect given the covariates, so a calibrated
null gives each gene's p-value (``pooled=False``, 19 draws: p in steps of 1/20) at most
alpha with probability at most alpha.

Schemes (the outcome kinds' ``covariate_nulls``): ``freedman-lane`` (regression,
the default: permute the residuals of y on the covariates, add back the fitted values;
Freedman and Lane 1983), ``parametric`` (classification, the default: each class drawn
from the logistic model of the classes on the covariates), ``strata`` (y permuted within
sex x quintiles of age), ``raw`` (y permuted as if there were no covariates, the adjusted
selector refitted), and ``unadjusted`` (the selector without covariates, labels permuted:
what ignoring the covariates gives). Per seed, the share of the confounded and of the
noise genes with p <= 0.05 and <= 0.10.

    python benchmarks/bench_covariate_null.py --seeds 40 \\
        --out benchmarks/results/covariate_null.csv
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from _record import finish, head_commit
from scipy.special import expit

SCHEMES = {"regression": ("freedman-lane", "strata", "raw", "unadjusted"),
           "classification": ("parametric", "strata", "raw", "unadjusted")}
N, P, CONFOUNDED = 80, 20, 10


def simulate(outcome: str, seed: int) -> tuple[np.ndarray, np.ndarray, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    age = rng.normal(size=N)
    sex = rng.integers(0, 2, N).astype(float)
    X = rng.normal(size=(N, P))
    X[:, :CONFOUNDED] += age[:, None]
    if outcome == "regression":
        y = age + 0.8 * sex + rng.normal(size=N)
    else:
        y = (rng.random(N) < expit(1.5 * age + 0.8 * sex - 0.4)).astype(np.int64)
    return X, y, pd.DataFrame({"age": age, "sex": sex})


def one(outcome: str, scheme: str, seed: int) -> dict:
    import modelmine as mm
    from modelmine.evaluation import selection_null

    X, y, covs = simulate(outcome, seed)
    selector = "pearson" if outcome == "regression" else "anova"
    kw = dict(n_permutations=19, pooled=False, random_state=seed, n_jobs=1,
              progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        base = mm.bootstrap(X, y, selector, n_bootstraps=10, n_features=3,
                            resampling="subsample", sample_fraction=0.5,
                            random_state=seed, outcome=outcome, progress=False,
                            fit_full=False) if scheme == "unadjusted" else None
        if base is not None:
            null = selection_null(X, y, base=base, **kw)
        else:
            null = selection_null(X, y, selector, outcome=outcome, covariates=covs,
                                  covariate_null=scheme, n_bootstraps=10, n_features=3,
                                  **kw)
    p = null.p_values
    return {"outcome": outcome, "scheme": scheme, "seed": seed,
            "confounded_005": float((p[:CONFOUNDED] <= 0.05).mean()),
            "noise_005": float((p[CONFOUNDED:] <= 0.05).mean()),
            "confounded_010": float((p[:CONFOUNDED] <= 0.10).mean()),
            "noise_010": float((p[CONFOUNDED:] <= 0.10).mean()),
            "min_p": float(p.min())}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--out", default=None)
    return parser.parse_args(argv)


def main() -> None:
    args = parse_args()
    commit = head_commit()
    rows = []
    start = time.perf_counter()
    for outcome, schemes in SCHEMES.items():
        for scheme in schemes:
            for seed in range(args.seeds):
                rows.append(one(outcome, scheme, seed))
    table = finish(rows, args.out, commit)
    summary = table.groupby(["outcome", "scheme"], sort=False).agg(
        **{f"{c}_mean": (c, "mean") for c in ("confounded_005", "noise_005",
                                              "confounded_010", "noise_010")},
        **{f"{c}_se": (c, lambda v: v.std(ddof=1) / np.sqrt(v.size))
           for c in ("confounded_005", "noise_005")}, seeds=("seed", "size"))
    print(summary.round(4).to_string())
    print(f"# {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
