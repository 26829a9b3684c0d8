"""Operators from an installed plugin, discovered through the ``modelmine.operators`` group.

A plugin is a separate distribution (see ``plugins/``) that declares its operators under
the entry-point group ``modelmine.operators``; once installed (``pip install -e
plugins/NAME``), modelmine finds them on first use, records which package they came from,
and they work by name like the built-ins (Woznica, Nguyen and Kalousis, KDD 2012, section 2,
define the built-in ones). This script lists the plugin operators it finds and runs each on
the leukemia data (72 samples x 7129 genes, Golub et al. 1999).

Run:  python examples/plugin_operator.py [--fast] [--out DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import modelmine as mm
from modelmine.operators import aggregate
from modelmine.operators import available_operators as available


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fast", action="store_true", help="small b (for the test suite)")
    parser.add_argument("--out", default=None, help="directory for the signatures CSV")
    args = parser.parse_args(argv)

    table = available()
    plugins = table[table["origin"] != "built-in"]
    print(f"{len(table)} operators registered, {len(plugins)} from plugins")
    if plugins.empty:
        print("No plugin operator is installed. Install the example plugin with\n"
              "  pip install -e plugins/modelmine-stabcomb\nand run this script again.")
        return 0
    print(plugins[["name", "kind", "origin", "description"]].to_string(index=False))

    X, y = mm.datasets.load_leukemia(as_frame=True)
    b, selector = (12, "anova") if args.fast else (150, "svm-rfe")
    base = mm.bootstrap(X, y, selector=selector, n_bootstraps=b, n_features=20,
                        random_state=0)
    frames = []
    for name, kind in zip(plugins["name"], plugins["kind"]):
        if kind == "multi":
            result = aggregate(base, name, n_signatures=3, random_state=0)
            sigs = list(result.signatures)
        else:
            sigs = [aggregate(base, name, n_features=20, random_state=0)]
        for i, sig in enumerate(sigs, start=1):
            print(f"{name} #{i}: {', '.join(sig.names[:10])} ...")
            frame = sig.to_frame().reset_index()
            frame.insert(0, "signature", i)
            frame.insert(0, "operator", name)
            frames.append(frame)
    if args.out and frames:
        import pandas as pd

        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        pd.concat(frames).to_csv(out / "plugin_signatures.csv", index=False)
        print(f"wrote {out / 'plugin_signatures.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
