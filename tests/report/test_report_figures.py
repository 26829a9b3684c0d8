"""The report's figures as drawn (issue 52 item 2): the top of the lattice with every label
readable (no box covering another, as 11 of 12 "support 0" labels were) and its supports
those of the itemsets (names with a tab: tests/kernels/test_report_helpers.py).

Oracles: the boxes' extents as Agg draws them, the supports counted by brute force over
the models.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

import modelmine as mm
from modelmine.report import plot_lattice_top


@pytest.fixture(scope="module")
def models():
    """20 models over 30 features: 12 features of decreasing frequency (the lattice's top
    row is 12 singletons wider than the figure), some pairs among them."""
    rng = np.random.default_rng(8)
    subsets = rng.random((20, 30)) < np.r_[np.linspace(0.95, 0.45, 12), np.full(18, 0.1)]
    names = np.array([f"GENE_{c}{j:02d}" for j, c in zip(range(30), "ABCDEFGHIJ" * 3)])
    return subsets, names


def test_the_lattice_top_labels_cover_none_and_read_their_supports(models):
    subsets, names = models
    closed = mm.mine_itemsets(subsets, itemset_type="closed", min_support=0.3)
    fig = plot_lattice_top(closed, names, top=12)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    labels = [t for t in fig.axes[0].texts if "support" in t.get_text()]
    assert len(labels) == 12
    boxes = [t.get_bbox_patch().get_window_extent(canvas.get_renderer()) for t in labels]
    assert [(i, j) for (i, a), (j, b) in itertools.combinations(enumerate(boxes), 2)
            if a.overlaps(b)] == []
    assert all(fig.bbox.contains(b.x0, b.y0) and fig.bbox.contains(b.x1, b.y1)
               for b in boxes)
    # the 12 closed itemsets of highest support, counted by brute force over the models
    # (ties: the smaller, then the first in name order), in the figure's label order
    counts = {frozenset(int(i) for i in s): int(subsets[:, list(s)].all(axis=1).sum())
              for s in closed.itemsets if len(s)}
    top = sorted(counts, key=lambda s: (-counts[s], len(s), sorted(s)))[:12]
    for text, items in zip((t.get_text() for t in labels), top):
        genes, line = text.split("\n")
        assert genes.split(", ")[0].split(" +")[0] == str(names[min(items)])
        assert line == f"support {counts[items] / 20:.2f} ({counts[items]}/20)", text
