"""grouping_effect and leave_one_group_out (issue 28), on data with a planted structure:
patients with near-copies of one profile (row-level resampling must look better than it
is), and a batch that alone carries a feature (leaving it out must drop that feature)."""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm


def _patients(n_patients=30, per=4, p=150, seed=0):
    """Each patient's samples are near-copies of one random profile; the label is the
    patient's and unrelated to any feature (no signal at all)."""
    rng = np.random.default_rng(seed)
    profile = rng.normal(size=(n_patients, p))
    groups = np.repeat(np.arange(n_patients), per)
    X = profile[groups] + 0.1 * rng.normal(size=(groups.size, p))
    y = rng.permutation(np.repeat([0, 1], n_patients // 2))[groups]
    return X, y, groups


def test_row_level_resampling_overstates_stability_and_understates_error():
    X, y, groups = _patients()
    table = mm.evaluation.grouping_effect(X, y, groups, selector="anova", classifier="1nn",
                                           n_bootstraps=10, n_features=10, n_folds=5)
    assert list(table.index) == ["rows", "groups"]
    rows, grp = table.loc["rows"], table.loc["groups"]
    assert rows.stability > grp.stability_high  # outside the group-level interval
    # no signal: grouped folds see chance; row folds find the patient's other samples
    assert grp.cv_error > 0.3
    assert rows.cv_error < 0.1
    with pytest.raises(ValueError, match=r"groups.*120 values"):
        mm.evaluation.grouping_effect(X, y, groups[:-1])


def test_leave_one_group_out_finds_the_batch_that_carries_a_feature():
    rng = np.random.default_rng(1)
    n, p = 120, 60
    batches = np.repeat(["site-A", "site-B", "site-C", "site-D"], n // 4)
    y = np.tile([0, 1], n // 2)
    X = rng.normal(size=(n, p))
    X[:, 0] += 2.5 * y  # a real marker, everywhere
    carried = batches == "site-C"
    X[carried, 1] += 6.0 * y[carried]  # a marker of one site only
    names = [f"g{j}" for j in range(p)]
    import pandas as pd

    frame = pd.DataFrame(X, columns=names)
    res = mm.evaluation.leave_one_group_out(frame, y, batches, selector="anova",
                                             operator="mostFreq", n_bootstraps=10,
                                             n_features=3, random_state=0)
    assert "g0" in res.signature and "g1" in res.signature
    table = res.table.set_index("group")
    assert "g1" in table.loc["site-C", "lost"].split()
    assert res.kept["g0"] == 1.0 and res.kept["g1"] < 1.0
    # the leave-out equals mm.run on the remaining samples (the oracle of each row)
    keep = batches != "site-C"
    alone = mm.run(frame[keep], y[keep], selector="anova", operators=["mostFreq"],
                   n_bootstraps=10, n_features=3, random_state=0)
    sig = set(alone.signatures["mostFreq"].names)
    want = len(sig & set(res.signature)) / len(sig | set(res.signature))
    assert table.loc["site-C", "jaccard"] == pytest.approx(want)
    assert 0.0 <= res.stability <= 1.0
    with pytest.raises(ValueError, match=r"batches.*at least 3 batches"):
        mm.evaluation.leave_one_group_out(frame, y, np.repeat(["a", "b"], n // 2))
