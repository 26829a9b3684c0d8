"""marker_panels' results on three seeded atlases, saved or compared bit for bit (issue 39.8).

Run once on the code before a speed change and once after:
``PYTHONPATH=<checkout> .venv/bin/python benchmarks/bench_markers_identical.py OUT.pkl
[--compare BEFORE.pkl]``: the panels, the marker table (frequencies, AUROCs, z, p),
the combinations (support, AUROC, p- and q-values) and every base model's selection
matrix and scores (the float32 score of every gene on every resample) of three atlases
(``bench_markers_speed.make_dense_atlas``: 6,000 x 400 at 22 %, 5,000 x 300 at 4.9 %
and at 48.7 % non-zeros; b = 10) are pickled and, with ``--compare``, checked equal to
the earlier ones exactly.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))

ATLASES = [(6000, 400, 0.3), (5000, 300, 0.05), (5000, 300, 1.0)]


def main() -> None:
    from bench_markers_speed import make_dense_atlas

    from modelmine.singlecell import marker_panels

    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--compare")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    out = {}
    for cells, genes, mean in ATLASES:
        adata = make_dense_atlas(cells, genes, 10, mean)
        r = marker_panels(adata, "cluster", n_bootstraps=10, progress=False)
        out[(cells, genes, mean)] = (r.panels, r.table, r.combinations,
                                     {k: (v.subsets, v.scores)
                                      for k, v in r.base_models.items()})
    with open(args.out, "wb") as f:
        pickle.dump(out, f)
    if args.compare:
        with open(args.compare, "rb") as f:
            before = pickle.load(f)
        for key, (panels, table, combos, subsets) in out.items():
            p0, t0, c0, s0 = before[key]
            assert panels == p0, key
            pd.testing.assert_frame_equal(table, t0, check_exact=True)
            pd.testing.assert_frame_equal(combos, c0, check_exact=True)
            assert all(np.array_equal(subsets[c][0], s0[c][0])
                       and np.array_equal(subsets[c][1], s0[c][1]) for c in subsets), key
            print(key, "identical:", len(table), "marker rows,", len(combos),
                  "combinations, the base models' subsets and scores")


if __name__ == "__main__":
    main()
