"""The invariant of grouped resampling, shared by the tests of the resampling kernels and of
grouped runs: a group is drawn whole (every row as often) or not at all."""

from __future__ import annotations

import numpy as np


def whole_groups(idx, groups):
    """The multiplicity of each drawn group, asserting every row of it came as often."""
    counts = np.bincount(idx, minlength=groups.size)
    drawn = {}
    for g in np.unique(groups):
        rows = counts[groups == g]
        assert (rows == rows[0]).all(), f"group {g} drawn in part: {rows}"
        if rows[0]:
            drawn[int(g)] = int(rows[0])
    return drawn
