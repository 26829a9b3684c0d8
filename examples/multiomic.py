"""
Several omics in one run (simulated data)
=========================================

A proteomics-like and a transcriptomics-like block of the same 100 samples, kept in one
MuData and mined together. The data are made up here, and say so: no real study is
embedded. Two blocks of different sizes and scales with planted features in both, as in
``benchmarks/bench_multiomic.py`` (whose measurements docs/biology.md quotes, on blocks of
its own): "prot" holds 150 proteins as raw intensities (around 10^4, 20 % noise), "rna"
1,500 transcripts on a log scale (around 2 to 12); the first 5 proteins and the first 10
transcripts are shifted by 0.8 of their standard deviation in the "case" samples,
everything else is noise. Because the truth is known, the example can say which
selections are right.

What it shows: ``mm.run(mdata, "obs:label")`` makes one run over both modalities, features
named ``prot:P0``, ``rna:G3``, with the ``stabl`` operator choosing one reliability
threshold per modality (Hedou et al. 2024) and the effects table giving each modality its
own effect measure; and why the scale matters: the same L1-penalised selector without
scaling sees the proteins' large units and hardly any transcript, while ``scale="standard"``
(z-scored inside each resample) gives both blocks their chance.

Run it::

    python examples/multiomic.py --out multiomic-run          # about a minute
    python examples/multiomic.py --fast --out /tmp/multiomic  # a few seconds
"""

import argparse
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import modelmine as mm

parser = argparse.ArgumentParser(description="Several omics in one run, on simulated data.")
parser.add_argument("--out", default="multiomic-run", help="output directory")
parser.add_argument("--fast", action="store_true",
                    help="a quick check: smaller blocks, b = 20 (the test suite, the gallery)")
parser.add_argument("--random-state", "--seed", dest="random_state", type=int, default=0)
args = parser.parse_args()
n_prot, n_rna, b = (60, 300, 20) if args.fast else (150, 1500, 50)


# %%
# The simulated study
# -------------------
def simulate(n_prot: int, n_rna: int, seed: int) -> tuple[object, set[str]]:
    """The two blocks as one MuData (labels in its obs) and the planted features."""
    import anndata
    import mudata

    rng = np.random.default_rng(seed)
    n = 100
    y = np.repeat(["ctrl", "case"], n // 2)
    ids = [f"S{i:03d}" for i in range(n)]
    shift = 0.8 * (y == "case")[:, None]
    z_prot, z_rna = rng.standard_normal((n, n_prot)), rng.standard_normal((n, n_rna))
    z_prot[:, :5] += shift
    z_rna[:, :10] += shift
    prot = 1e4 * rng.lognormal(0.0, 0.5, n_prot) * (1.0 + 0.2 * z_prot)
    rna = rng.uniform(2, 12, n_rna) + rng.uniform(0.3, 1.5, n_rna) * z_rna
    blocks = {}
    for name, values, prefix in (("prot", prot, "P"), ("rna", rna, "G")):
        block = anndata.AnnData(values)
        block.obs_names = ids
        block.var_names = [f"{prefix}{j}" for j in range(values.shape[1])]
        blocks[name] = block
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # mudata's notes on its future defaults
        mdata = mudata.MuData(blocks)
    mdata.obs["label"] = pd.Series(y, index=ids)
    planted = {f"prot:P{j}" for j in range(5)} | {f"rna:G{j}" for j in range(10)}
    return mdata, planted


def found(names: object, planted: set[str]) -> str:
    """How many selected features of each modality are planted, and how many are not."""
    chosen = [str(f) for f in names]
    parts = []
    for modality in ("prot", "rna"):
        mine = [f for f in chosen if f.startswith(modality + ":")]
        right = sum(f in planted for f in mine)
        total = sum(f.startswith(modality + ":") for f in planted)
        parts.append(f"{modality} {right} of {total} planted, {len(mine) - right} other")
    return "; ".join(parts)


mdata, planted = simulate(n_prot, n_rna, args.random_state)
print(f"SIMULATED data: {mdata.n_obs} samples; prot {n_prot} proteins (raw intensities), "
      f"rna {n_rna} transcripts (log scale); 5 + 10 planted features")

# %%
# The same run, unscaled and scaled
# ---------------------------------
settings = dict(selector="l1-logistic", operators=["stabl", "closedApr"],
                n_bootstraps=b, n_features=20, resampling="subsample",
                sample_fraction=0.5, artificial_features="permutation",
                random_state=args.random_state, progress=False)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # liblinear's convergence notes on tiny resamples
    raw = mm.run(mdata, "obs:label", scale="none", **settings)
    run = mm.run(mdata, "obs:label", scale="standard", **settings)
print("l1-logistic on the values as they are (scale='none'):")
print(f"  closedApr (m = 20): {found(raw.signatures['closedApr'].names, planted)}")
print("l1-logistic z-scored inside each resample (scale='standard'):")
print(f"  closedApr (m = 20): {found(run.signatures['closedApr'].names, planted)}")

# %%
# stabl, a threshold per modality
# -------------------------------
stabl = run.signatures["stabl"]
print(f"stabl, a threshold per modality: {found(stabl.names, planted)}")
for modality, record in stabl.provenance["modalities"].items():
    print(f"  {modality}: frequency above {record['threshold']:.2f}, estimated FDP "
          f"{record['fdp_plus']:.2f}")

# %%
# Each modality's effects
# -----------------------
effects = run.effects()
case = effects[effects["class"] == "case"]
for modality, part in case.groupby("modality", sort=False):
    print(f"effects, {modality}: {part.effect_measure.iloc[0].replace('_', ' ')}; "
          f"{int((part.q_value <= 0.05).sum())} of {len(part)} at q <= 0.05")
volcano = mm.report.plot_volcano(effects, {"stabl": list(stabl.names)}, cls="case")

# %%
# The run directory
# -----------------
out = Path(args.out)
run.save(out, force=True)
print("wrote the run (report.html: the volcano has one panel per modality; effects.csv and "
      "markers.csv carry the modality column)")
