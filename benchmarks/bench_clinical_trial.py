"""The new-user trial of issue 39, item 3: scikit-survival's clinical tables at the defaults.

For whas500, gbsg2 and veterans_lung_cancer (shipped with scikit-survival), a survival run
at the defaults (selector coxnet, m chosen by the rule for p < 60) without and with
covariates (age, and sex where there is one), and what the run says: m, p, the Nogueira
stability, whether a caution was raised, the values statement, the top markers with their
hazard ratio per SD and oriented concordance. Writes ``results/clinical_trial.csv`` and
prints the commit it ran at.

    python benchmarks/bench_clinical_trial.py [--bootstraps 30]
"""

from __future__ import annotations

import argparse
import subprocess
import warnings
from pathlib import Path

import pandas as pd

import modelmine as mm


def _tables() -> dict[str, tuple[pd.DataFrame, object, list[str]]]:
    from sksurv.datasets import load_gbsg2, load_veterans_lung_cancer, load_whas500

    out = {}
    for name, loader, covs in (("whas500", load_whas500, ["age", "gender"]),
                               ("gbsg2", load_gbsg2, ["age"]),
                               ("veterans_lung_cancer", load_veterans_lung_cancer,
                                ["Age_in_years"])):
        X, y = loader()
        X = X.apply(lambda c: c.astype(float) if c.dtype.name == "category"
                    and set(c.cat.categories) <= {"0", "1"} else c)
        X = pd.get_dummies(X, drop_first=True).astype(float)
        X.columns = [str(c) for c in X.columns]
        out[name] = (X, y, covs)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bootstraps", type=int, default=30)
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False).stdout.strip()
    rows = []
    for name, (X, y, covs) in _tables().items():
        for covariates in (None, covs):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                run = mm.run(X, y, outcome="survival", covariates=covariates,
                             n_bootstraps=args.bootstraps, progress=False)
            nog = run.diagnostics.query("measure == 'nogueira'").iloc[0]
            markers = run.markers()
            caution = " | ".join(run.warnings())
            for _, m in markers.head(5).iterrows():
                rows.append({
                    "dataset": name, "covariates": "+".join(covariates or []) or "none",
                    "p": run.base_models.n_features_in, "m": run.settings["n_features"],
                    "nogueira": round(float(nog["value"]), 3),
                    "caution": caution or "none", "values": run.data["values"],
                    "feature": m["feature"], "direction": m["direction"],
                    "hazard_ratio_per_sd": round(float(m["hazard_ratio"]), 3),
                    "hr_low": round(float(m["hr_low"]), 3),
                    "hr_high": round(float(m["hr_high"]), 3),
                    "concordance_oriented": round(float(m["concordance"]), 3),
                    "effect_measure": m["effect_measure"], "commit": commit,
                    "command": f"python benchmarks/bench_clinical_trial.py --bootstraps "
                               f"{args.bootstraps}"})
            print(name, covariates, "m =", run.settings["n_features"], "of p =",
                  run.base_models.n_features_in, "nogueira", round(float(nog["value"]), 3),
                  "caution:", caution or "none", flush=True)
    out = Path(__file__).resolve().parent.parent / "results" / "clinical_trial.csv"
    pd.DataFrame(rows).to_csv(out, index=False)
    print(f"wrote {out} at commit {commit}")


if __name__ == "__main__":
    main()
