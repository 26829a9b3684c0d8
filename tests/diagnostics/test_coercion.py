"""Every diagnostic takes the previous stage's object as it is, through one coercion."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

import modelmine as mm
from modelmine import diagnostics as dg


@pytest.fixture(scope="module")
def run():
    X, y = mm.datasets.load_colon()
    return mm.run(X, y, selector="anova", operators=["mostFreq", "allMed"], n_bootstraps=15,
                  n_features=8, n_signatures=4, random_state=2)


def _jaccard(a, b):
    a, b = set(a), set(b)
    return 1.0 if not (a | b) else len(a & b) / len(a | b)


def test_subset_measures_take_base_models_and_any_matrix(run):
    base = run.base_models
    Z = base.subsets
    ref = dg.nogueira_stability(Z)
    assert dg.nogueira_stability(base).value == ref.value
    assert dg.nogueira_stability(sp.csr_matrix(Z)).value == ref.value
    idx = [np.flatnonzero(row) for row in Z]
    assert dg.nogueira_stability(idx, base.n_features_in).value == pytest.approx(ref.value)
    for name in ("jaccard", "dice", "kuncheva", "pearson"):
        assert dg.stability(base, name).value == pytest.approx(dg.stability(Z, name).value)
    with pytest.raises(ValueError, match=r"'n_features_in' parameter of jaccard_stability "
                                         r"must be None or 2000"):
        dg.jaccard_stability(base, 1999)


def test_signature_sets_and_lists_of_signatures(run):
    alts = run.signatures["allMed"]
    p = run.base_models.n_features_in
    masks = np.vstack([s.mask() for s in alts])
    want = np.mean([_jaccard(a.features, b.features)
                    for a, b in itertools.combinations(alts, 2)])
    for given in (alts, list(alts), tuple(alts), masks):
        assert dg.diversity(given).value == pytest.approx(want)
    assert dg.diversity([s.features for s in alts], p).value == pytest.approx(want)
    sim = alts.overlap()
    for i, j in itertools.combinations(range(len(alts)), 2):
        assert sim[i, j] == pytest.approx(_jaccard(alts[i].features, alts[j].features))
        assert alts[i].overlap(alts[j]) == pytest.approx(sim[i, j])
    one = run.signatures["mostFreq"]
    assert dg.as_selection_matrix(one, min_subsets=1).shape == (1, p)


def test_rank_and_score_measures_take_base_models(run):
    base = run.base_models
    assert dg.spearman_stability(base).value == pytest.approx(
        dg.spearman_stability(base.tied_ranks()).value)
    assert dg.stability(base, "score_std").value == pytest.approx(
        dg.score_std_stability(base.scores).value)
    ranking_only = mm.bootstrap(*mm.datasets.load_colon(), selector="svm-rfe",
                                n_bootstraps=2, n_features=5, random_state=0,
                                fit_full=False)
    with pytest.raises(ValueError, match=r"'scores' parameter of score_std_stability must "
                                         r"be base models with scores"):
        dg.score_std_stability(ranking_only)
