"""The markers table (issue 26, item 1, the pooled signature's table): AUROC against
scikit-learn, effect sizes against hand-computed worked examples, Wilson intervals against
scipy, directions on planted markers, q-values equal the null's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest
from sklearn.metrics import roc_auc_score

import modelmine as mm
from modelmine.diagnostics import marker_table


def test_worked_examples_of_both_effect_sizes():
    # class a: 1, 2, 3; rest: 4, 5, 6. Means 2 and 5, pooled sd 1, d = -3,
    # Hedges' correction 1 - 3 / (4 (6 - 2) - 1) = 0.8: g = -2.4; AUROC 0.
    X = np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]])
    y = np.array(["a", "a", "a", "b", "b", "b"])
    t = marker_table(X, y).set_index("class")
    assert t.loc["a", "effect_measure"] == "standardized_mean_difference"
    assert t.loc["a", "effect_size"] == pytest.approx(-2.4)
    assert t.loc["b", "effect_size"] == pytest.approx(2.4)
    assert t.loc["a", "direction"] == "down" and t.loc["b", "direction"] == "up"
    assert t.loc["a", "auroc"] == 0.0 and t.loc["b", "auroc"] == 1.0
    # raw counts (maximum above 100): log2((mean_in + 1) / (mean_rest + 1))
    counts = np.array([[0.0], [1.0], [2.0], [300.0], [200.0], [100.0]])
    t = marker_table(counts, y).set_index("class")
    assert t.loc["b", "effect_measure"] == "log2_fold_change"
    assert t.loc["b", "effect_size"] == pytest.approx(np.log2(201.0 / 2.0))
    assert t.loc["a", "effect_size"] == pytest.approx(-np.log2(201.0 / 2.0))


def test_auroc_and_means_equal_a_direct_computation(leukemia):
    X, y, names = leukemia
    X = np.asarray(X)[:, :60]
    rng = np.random.default_rng(0)
    labels = np.where(rng.random(y.size) < 0.3, "c", np.asarray(y).astype(str))  # 3 classes
    t = marker_table(X, labels, feature_names=names[:60])
    for cls in np.unique(labels):
        part = t[t["class"] == cls].set_index("feature")
        inside = labels == cls
        for j in range(60):
            row = part.loc[str(names[j])]
            assert row.auroc == pytest.approx(roc_auc_score(inside, X[:, j]), abs=1e-12)
            assert row.mean_in_class == pytest.approx(X[inside, j].mean())
            assert row.mean_rest == pytest.approx(X[~inside, j].mean())
        # rank_in_class orders the genes by |AUROC - 0.5|
        sep = np.abs(part.sort_values("rank_in_class").auroc.to_numpy() - 0.5)
        assert (np.diff(sep) <= 1e-15).all()


def test_wilson_intervals_equal_scipy():
    X = np.random.default_rng(1).normal(size=(20, 5))
    y = np.repeat([0, 1], 10)
    freq = np.array([0.0, 0.2, 0.5, 0.9, 1.0])
    t = marker_table(X, y, frequency=freq, n_models=50)
    for j, f in enumerate(freq):
        row = t[(t["class"] == 0) & (t.feature == f"x{j}")].iloc[0]
        ci = binomtest(round(f * 50), 50).proportion_ci(method="wilson")
        assert (row.frequency_low, row.frequency_high) == pytest.approx((ci.low, ci.high))


def test_planted_markers_have_their_direction_and_the_run_writes_them(tmp_path):
    rng = np.random.default_rng(2)
    n, p = 90, 40
    y = np.repeat(["alpha", "beta", "gamma"], 30)
    X = rng.normal(size=(n, p))
    X[y == "alpha", 0] += 3.0   # up in alpha
    X[y == "beta", 1] -= 3.0    # down in beta
    X[y == "gamma", 2] += 3.0   # up in gamma
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(p)])
    run = mm.run(frame, y, selector="anova", operators=["mostFreq"], n_bootstraps=10,
                 n_features=3, random_state=0)
    assert set(run.signatures["mostFreq"].names) == {"g0", "g1", "g2"}
    m = run.markers().set_index(["class", "feature"])
    assert m.loc[("alpha", "g0"), "direction"] == "up"
    assert m.loc[("beta", "g1"), "direction"] == "down"
    assert m.loc[("gamma", "g2"), "direction"] == "up"
    for cls, gene in (("alpha", "g0"), ("beta", "g1"), ("gamma", "g2")):
        assert m.loc[(cls, gene), "rank_in_class"] == 1
    assert (m.frequency == 1.0).all()
    # q-values are the null's
    null = mm.evaluation.selection_null(frame, y, base=run.base_models, n_permutations=10)
    q = run.markers(null=null).set_index("feature").q_value
    want = null.to_frame().q_value
    for gene in ("g0", "g1", "g2"):
        assert (q.loc[gene] == want.loc[gene]).all()
    # the run directory holds markers.csv and markers.gmt
    out = run.save(tmp_path / "run")
    written = pd.read_csv(out / "markers.csv")
    assert len(written) == 9 and set(written.signature) == {"mostFreq"}
    gmt = {line.split("\t")[0]: line.split("\t")[2:]
           for line in (out / "markers.gmt").read_text().splitlines()}
    assert gmt["mostFreq_alpha_up"][0] == "g0"  # the best separator first
    assert gmt["mostFreq_beta_down"][0] == "g1"
    assert "g1" not in gmt.get("mostFreq_beta_up", [])
    with pytest.raises(ValueError, match="operator"):
        run.markers("closedApr")
