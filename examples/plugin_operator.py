"""
Operators from an installed plugin
==================================

A plugin is a separate distribution (see ``plugins/``) that declares its operators under
the entry-point group ``modelmine.operators``. Once it is installed (``pip install -e
plugins/NAME``; the README's set-up installs the example plugin, modelmine-stabcomb),
modelmine finds its operators on first use, records which package each came from, and they
work by name like the built-ins (Woznica, Nguyen and Kalousis, KDD 2012, section 2, define
the built-in ones). This example lists the plugin operators it finds and runs each on the
leukemia data (72 samples x 7129 genes, Golub et al. 1999).

Run it::

    python examples/plugin_operator.py [--fast] [--out DIR]   # svm-rfe, b = 150; or anova, b = 12
"""

import argparse
from pathlib import Path

import pandas as pd

import modelmine as mm
from modelmine.operators import aggregate, available_operators

parser = argparse.ArgumentParser(description="Operators from an installed plugin, discovered "
                                 "through the modelmine.operators entry-point group.")
parser.add_argument("--fast", action="store_true", help="small b (the test suite, the gallery)")
parser.add_argument("--out", default=None, help="directory for the signatures CSV")
args = parser.parse_args()
b, selector = (12, "anova") if args.fast else (150, "svm-rfe")

# %%
# What the registry found
# -----------------------
# Every operator with its origin: "built-in", or the distribution that declared it.
table = available_operators()
plugins = table[~table["origin"].isin(["built-in", "__main__"])]
print(f"{len(table)} operators registered, {len(plugins)} from plugins")
if plugins.empty:
    print("No plugin operator is installed. Install the example plugin with\n"
          "  pip install -e plugins/modelmine-stabcomb\nand run this example again.")
else:
    print(plugins[["name", "kind", "origin", "description"]].to_string(index=False))

# %%
# Each plugin operator on leukemia
# --------------------------------
X, y = mm.datasets.load_leukemia(as_frame=True)
base = mm.bootstrap(X, y, selector=selector, n_bootstraps=b, n_features=20, random_state=0)
frames = []
for name, kind in zip(plugins["name"], plugins["kind"]):
    if kind == "multi":
        sigs = list(aggregate(base, name, n_signatures=3, random_state=0).signatures)
    else:
        sigs = [aggregate(base, name, n_features=20, random_state=0)]
    for i, sig in enumerate(sigs, start=1):
        print(f"{name} #{i}: {', '.join(sig.names[:10])} ...")
        frame = sig.to_frame().reset_index()
        frame.insert(0, "signature", i)
        frame.insert(0, "operator", name)
        frames.append(frame)

# %%
# Files
# -----
if args.out and frames:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pd.concat(frames).to_csv(out / "plugin_signatures.csv", index=False)
    print("wrote plugin_signatures.csv")
