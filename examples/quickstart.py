"""
Quick start: a robust gene signature for colon cancer
=====================================================

What ``modelmine run embedded:colon --out DIR`` does, in Python with public names only
(Woznica, Nguyen and Kalousis, "Model Mining for Robust Feature Selection", KDD 2012):
fit a feature selector on b bootstrap samples of the colon data (62 tissues x 2000 genes),
mine its base models into one consensus signature (closedApr) and k alternative signatures
(allMed), say how stable the selector is, and save everything with a self-contained HTML
report.

Run it::

    python examples/quickstart.py --out colon-report          # SVM-RFE, b = 150: about a minute
    python examples/quickstart.py --fast --out /tmp/quick      # ANOVA, b = 20: a few seconds

The gallery shows the ``--fast`` run (``make demo`` runs the full one).
"""

import argparse

import modelmine as mm

parser = argparse.ArgumentParser(description="Quick start: a robust gene signature for colon "
                                 "cancer, with a report to open.")
parser.add_argument("--out", default="modelmine-demo", help="output directory")
parser.add_argument("--fast", action="store_true",
                    help="a quick check: ANOVA selector, b = 20 (the test suite, the gallery)")
parser.add_argument("--random-state", "--seed", dest="random_state", type=int, default=0)
parser.add_argument("--force", action="store_true", help="replace an existing --out")
args = parser.parse_args()
selector, b = ("anova", 20) if args.fast else ("svm-rfe", 150)

# %%
# The data and the run
# --------------------
# The colon data ship with modelmine (Alon et al. 1999). One call fits the selector on b
# bootstrap samples (the base models, each a subset of m = 20 genes), runs the two
# operators and the diagnostics, and returns an immutable :class:`~modelmine.MiningRun`.
data = mm.datasets.read_data("embedded:colon")
print(f"colon data: {data.shape[0]} tissues x {data.shape[1]} genes "
      f"(Alon et al. 1999); selector {selector}, b = {b} bootstrap samples, m = 20")
run = mm.run(data, selector=selector, operators=["closedApr", "allMed"],
             n_bootstraps=b, n_features=20, n_signatures=10, random_state=args.random_state,
             progress=False)
saved = run.save(args.out, force=args.force)

# %%
# Which genes the base models agree on
# ------------------------------------
# Each gene's selection frequency: the share of the b base models that selected it.
print("Most frequently selected genes across the base models:")
for name, row in run.base_models.summary(top=10).iterrows():
    bar = "#" * round(row["frequency"] * 30)
    print(f"  {name:>6}  {row['frequency']:5.2f}  {bar}")
consensus = run.signatures["closedApr"]
frequency_figure = mm.report.plot_selection_frequency(run.base_models, top=30,
                                                      highlight=list(consensus.features))

# %%
# How stable the selector is
# --------------------------
# Nogueira's stability of the b subsets, with its 95 % confidence interval (Nogueira,
# Sechidis and Brown, JMLR 2018): 1 when every base model selects the same genes, 0 when
# they agree no more than random subsets of the same size would.
nog = run.stability()
low, high = nog.confidence_interval
print(f"Stability of {selector} across the {b} bootstrap samples (Nogueira): "
      f"{nog.value:.2f}  [95% CI {low:.2f}, {high:.2f}]"
      "\n  (1 = same genes every time, 0 = no better than random)")
stability_figure = mm.report.plot_stability(run.diagnostics)

# %%
# One consensus signature and its alternatives
# --------------------------------------------
# closedApr joins the closed gene sets of highest support until the signature holds m
# genes; allMed clusters the base models (k-medoids on Jaccard distances) and returns the
# medoid of each cluster: k signatures that are each a model the selector actually made.
print(f"closedApr consensus signature ({len(consensus)} genes): " + ", ".join(consensus.names))
alternatives = run.signatures["allMed"]
print(f"\nallMed: {len(alternatives)} alternative signatures, mean pairwise Jaccard "
      f"overlap {alternatives.mean_overlap():.2f}")
for i, sig in enumerate(list(alternatives)[:3], start=1):
    print(f"  alternative {i}: " + ", ".join(sig.names[:8]) + " ...")
overlap_figure = mm.report.plot_signature_overlap(
    mm.report.operator_result("allMed", alternatives))

# %%
# The report
# ----------
# ``run.save`` wrote the tables (CSV, JSON), the base models and ``report.html``, one
# self-contained page that works offline and can be e-mailed.
print(f"Open {args.out}/report.html in a browser (it works offline and can be e-mailed).")
