"""
A survival signature, checked on held-out patients
==================================================

Nothing after the selector needs classes (KDD 2012, section 2: the base models are subsets
and rankings of genes), so a time to relapse with censoring runs the same flow with a
survival selector (docs/outcomes.md). The data are scikit-survival's breast cancer cohort
(198 patients, 76 genes and the clinical values age, size, grade and ER status; the time to
distant metastasis, censored; shipped with scikit-survival).

The run is made on half of the patients. Its consensus signature is then scored on the
other half: a Cox model of the signature's genes, fitted on the first half, splits the held
-out patients at its median risk, and the two groups' Kaplan-Meier curves and log-rank test
say whether the signature separates patients it never saw.

Run it::

    python examples/survival.py [--fast] [--out DIR]   # b = 150, or 20
"""

import argparse
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from sksurv.compare import compare_survival
from sksurv.datasets import load_breast_cancer
from sksurv.metrics import concordance_index_censored
from sksurv.nonparametric import kaplan_meier_estimator

import modelmine as mm

parser = argparse.ArgumentParser(description="A survival signature on breast cancer, checked "
                                 "on held-out patients.")
parser.add_argument("--fast", action="store_true", help="b = 20 (the test suite, the gallery)")
parser.add_argument("--out", type=Path, default=None, help="directory for the tables")
args = parser.parse_args()
b = 20 if args.fast else 150

# %%
# The cohort, in two halves
# -------------------------
X, y = load_breast_cancer()
X = X.select_dtypes("number")                      # the 76 genes, age and tumour size
event, time = y["e.tdm"], y["t.tdm"]
rng = np.random.default_rng(0)
order = rng.permutation(len(y))
train, test = np.sort(order[: len(y) // 2]), np.sort(order[len(y) // 2:])
print(f"{len(y)} patients, {int(event.sum())} metastases; {X.shape[1]} numeric variables; "
      f"{len(train)} to select on, {len(test)} held out")

# %%
# The run
# -------
# The "cox-score" selector ranks each variable by its Cox score test; closedApr joins the
# closed sets of highest support into one signature of m = 8.
run = mm.run(X.iloc[train], y[train], outcome="survival", selector="cox-score",
             operators=["closedApr"], n_bootstraps=b, n_features=8, random_state=0,
             progress=False)
signature = run.signatures["closedApr"]
print(f"closedApr: {', '.join(signature.names)}")
stability = run.stability()
print(f"Nogueira stability of the base models {stability.value:.2f}")

# %%
# Each gene's hazard ratio
# ------------------------
# Per standard deviation, with its 95 % interval, on the patients the run saw.
markers = run.markers()
table = markers[["feature", "direction", "hazard_ratio", "hr_low", "hr_high", "p_value",
                 "frequency"]]
print(table.to_string(index=False))
forest = Figure(figsize=(6, 0.35 * len(table) + 1.2))
axes = forest.subplots()
rows = np.arange(len(table))
axes.errorbar(table["hazard_ratio"], rows,
              xerr=[table["hazard_ratio"] - table["hr_low"],
                    table["hr_high"] - table["hazard_ratio"]], fmt="o", color="#1f4e79")
axes.axvline(1.0, color="grey", lw=0.8)
axes.set_xscale("log")
axes.set_yticks(rows, table["feature"])
axes.invert_yaxis()
axes.set_xlabel("hazard ratio per standard deviation (95 % interval)")
axes.set_title("The signature's genes, on the selection half")
forest.tight_layout()

# %%
# The held-out half
# -----------------
# A Cox model of the signature's genes on the selection half (``mm.outcomes.cox_fit``,
# standardised by that half's means and deviations), its risk on the held-out patients.
columns = list(signature.names)
mean, sd = X.iloc[train][columns].mean(), X.iloc[train][columns].std()
beta, _ = mm.outcomes.cox_fit(((X.iloc[train][columns] - mean) / sd).to_numpy(),
                              event[train], time[train])
risk = ((X.iloc[test][columns] - mean) / sd).to_numpy() @ beta
high = risk > np.median(risk)
concordance = concordance_index_censored(event[test], time[test], risk)[0]
chi2, p_value = compare_survival(y[test], high)
print(f"held-out patients: concordance {concordance:.2f}; log-rank chi2 {chi2:.1f}, "
      f"p = {p_value:.3g} (high against low risk)")

curves = Figure(figsize=(6, 4))
axes = curves.subplots()
for group, label, colour in ((~high, "low risk", "#1f77b4"), (high, "high risk", "#d62728")):
    days, surviving = kaplan_meier_estimator(event[test][group], time[test][group])
    axes.step(days / 365.25, surviving, where="post", color=colour,
              label=f"{label} ({int(group.sum())} patients)")
axes.set_xlabel("years")
axes.set_ylabel("free of distant metastasis")
axes.set_ylim(0, 1.02)
axes.legend()
axes.set_title(f"Held-out patients by signature risk (log-rank p = {p_value:.2g})")
curves.tight_layout()

# %%
# Files
# -----
if args.out:
    args.out.mkdir(parents=True, exist_ok=True)
    markers.to_csv(args.out / "markers.csv", index=False)
    curves.savefig(args.out / "kaplan_meier.png", dpi=110)
    print("wrote markers.csv and kaplan_meier.png")
