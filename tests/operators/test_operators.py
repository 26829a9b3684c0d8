"""Built-in operators on real base models, against slow references written the obvious way."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.spatial.distance import pdist, squareform

from modelmine.operators import OperatorRegistry
from modelmine.testing import make_base_models

REG = OperatorRegistry(group=None)  # built-ins only, no plugin can interfere
# The error-controlled operators (variable size, resampling requirements) are tested in
# test_error_control.py: they do not apply to bootstrap base models of fixed size m.
SINGLE = [n for n in REG.names()
          if REG.get(n).kind == "single" and not REG.get(n).variable_size]
MULTI = [n for n in REG.names() if REG.get(n).kind == "multi"]


#: The references' values per base models object (the object is kept with them, so its
#: id is not reused): the parametrised tests share one brute force instead of repeating it.
_MEMO: dict[int, tuple[object, dict]] = {}


def _memo(base, key, compute):
    held = _MEMO.setdefault(id(base), (base, {}))[1]
    if key not in held:
        held[key] = compute()
    return held[key]


def mean_rank(base, j):
    """Mean over the models of feature j's rank, exact ties sharing their average rank:
    1 + (features scoring strictly better) + (other features tied with it) / 2."""
    return _memo(base, "mean_ranks", lambda: _mean_ranks(base))[j]


def _mean_ranks(base):
    """Every feature's mean rank: each model's scores ranked by scipy's ``rankdata``
    (descending, ties at their average rank: the formula above), summed model by model in
    order, as a loop over the models would (the sums of half-integers are exact)."""
    from scipy.stats import rankdata

    if base.scores is None:
        ranks = np.asarray(base.ranks, dtype=float)
    else:
        ranks = rankdata(-np.asarray(base.scores, dtype=float), method="average", axis=1)
    total = np.zeros(base.n_features_in)
    for row in ranks:
        total = total + row
    return (total / base.n_models).tolist()


def count(base, j):
    return sum(bool(base.subsets[i, j]) for i in range(base.n_models))


# ------------------------------------------------------------ slow references
def ref_avg_rank(base, m):
    p = base.n_features_in
    return sorted(range(p), key=lambda j: (mean_rank(base, j), -count(base, j), j))[:m]


def ref_most_freq(base, m):
    p = base.n_features_in
    return sorted(range(p), key=lambda j: (-count(base, j), mean_rank(base, j), j))[:m]


def all_closed_itemsets(base):
    """Closed itemsets = intersections of non-empty sets of transactions (by closure)."""
    return dict(_memo(base, "closed", lambda: _all_closed_itemsets(base)))


def _all_closed_itemsets(base):
    tx = [frozenset(np.flatnonzero(row).tolist()) for row in base.subsets]
    closed = set(t for t in tx if t)
    frontier = set(closed)
    while frontier:
        new = {c & t for c in frontier for t in tx} - closed - {frozenset()}
        closed |= new
        frontier = new
    return {c: sum(c <= t for t in tx) for c in closed}


def ref_order(base, itemsets):
    mr = {j: mean_rank(base, j) for s in itemsets for j in s}
    return sorted(itemsets, key=lambda s: (-itemsets[s], -len(s),
                                           sum(mr[j] for j in s) / len(s), tuple(sorted(s))))


def ref_closed_apr(base, m):
    closed = all_closed_itemsets(base)
    counts = sorted((count(base, j) for j in range(base.n_features_in)), reverse=True)
    threshold = counts[m - 1]
    frequent = {s: c for s, c in closed.items() if c >= threshold}
    chosen = []
    for s in ref_order(base, frequent):
        new = [j for j in s if j not in chosen]
        new.sort(key=lambda j: (-count(base, j), mean_rank(base, j), j))
        chosen += new[: m - len(chosen)]
        if len(chosen) == m:
            return chosen
    raise AssertionError("not enough features")


def ref_all_closed_apr(base, k):
    closed = all_closed_itemsets(base)
    out = []
    for s in ref_order(base, closed)[:k]:
        out.append(sorted(s, key=lambda j: (-count(base, j), mean_rank(base, j), j)))
    return out


def jaccard(a, b):
    return 1 - len(a & b) / len(a | b)


def ref_most_rep(base):
    sets = [set(np.flatnonzero(r).tolist()) for r in base.subsets]
    totals = [sum(jaccard(s, t) for t in sets) for s in sets]
    return base.selected(int(np.argmin(totals))).tolist()


def ref_pam_loss(base, k):
    """PAM from BUILD (scikit-learn-extra), the start that allMed's restarts improve on."""
    from sklearn_extra.cluster import KMedoids

    dist = squareform(pdist(base.subsets, "jaccard"))
    km = KMedoids(n_clusters=k, metric="precomputed", method="pam", init="build").fit(dist)
    return float(dist[:, km.medoid_indices_].min(axis=1).sum())


def ref_all_med(base, medoids):
    """The signatures of given medoid models: clusters by nearest medoid (ties: lower
    index), ordered by decreasing size then medoid index."""
    dist = squareform(pdist(base.subsets, "jaccard"))
    med = np.sort(np.asarray(medoids))
    labels = np.argmin(dist[:, med], axis=1)
    labels[med] = np.arange(med.size)
    sizes = np.bincount(labels, minlength=med.size)
    order = sorted(range(med.size), key=lambda c: (-sizes[c], med[c]))
    loss = float(dist[np.arange(len(labels)), med[labels]].sum())
    return [base.selected(int(med[c])).tolist() for c in order], loss


# ------------------------------------------------------------------- tests
@pytest.mark.parametrize("m", [1, 7, 20])
def test_avg_rank_and_most_freq_match_reference(real_base, m):
    assert REG.aggregate(real_base, "avgRank", n_features=m).features.tolist() == \
        ref_avg_rank(real_base, m)
    assert REG.aggregate(real_base, "mostFreq", n_features=m).features.tolist() == \
        ref_most_freq(real_base, m)


@pytest.mark.parametrize("m", [5, 20])
def test_closed_apr_matches_reference(real_base, m):
    sig = REG.aggregate(real_base, "closedApr", n_features=m, strategy="literal")
    assert sig.features.tolist() == ref_closed_apr(real_base, m)
    prov = sig.provenance
    used = prov["itemsets"]
    assert prov["n_itemsets_used"] == len(used)
    assert prov["mean_itemset_size"] == pytest.approx(np.mean([len(u["items"]) for u in used]))
    assert prov["mean_itemset_support"] == pytest.approx(np.mean([u["support"] for u in used]))
    assert sum(len(u["added"]) for u in used) == m
    # supports are non-increasing along the signature (itemsets in order of support)
    assert np.all(np.diff(sig.scores) <= 1e-12)


@pytest.mark.parametrize("k", [1, 4, 10])
def test_all_closed_apr_matches_reference(real_base, k):
    sigs = REG.aggregate(real_base, "allClosedApr", n_signatures=k)
    assert [s.features.tolist() for s in sigs] == ref_all_closed_apr(real_base, k)


def test_most_rep_matches_reference(real_base):
    assert REG.aggregate(real_base, "mostRep").features.tolist() == ref_most_rep(real_base)


@pytest.mark.parametrize("k", [2, 5])
def test_all_med_matches_reference(real_base, k):
    sigs = REG.aggregate(real_base, "allMed", n_signatures=k, backend="sklearn-extra")
    # The medoids are base models whose selected features the signatures are.
    medoids = [next(i for i in range(real_base.n_models)
                    if real_base.selected(i).tolist() == s.features.tolist()) for s in sigs]
    expected, loss = ref_all_med(real_base, medoids)
    assert [s.features.tolist() for s in sigs] == expected
    assert sigs[0].provenance["loss"] == pytest.approx(loss)
    assert loss <= ref_pam_loss(real_base, k) + 1e-9  # restarts never worse than PAM
    assert sum(s.provenance["cluster_size"] for s in sigs) == real_base.n_models


def test_k1_forms_equal_single_operators(real_base):
    one = REG.aggregate(real_base, "allMed", n_signatures=1)
    assert one[0].features.tolist() == REG.aggregate(real_base, "mostRep").features.tolist()
    one = REG.aggregate(real_base, "allMedClosedApr", n_signatures=1)
    single = REG.aggregate(real_base, "medClosedApr")
    assert one[0].features.tolist() == single.features.tolist()


def test_med_closed_apr_is_medoid_of_models_holding_top_itemset(real_base):
    closed = all_closed_itemsets(real_base)
    top = ref_order(real_base, closed)[0]
    holders = [i for i in range(real_base.n_models)
               if top <= set(np.flatnonzero(real_base.subsets[i]).tolist())]
    sets = [set(np.flatnonzero(real_base.subsets[i]).tolist()) for i in holders]
    totals = [sum(jaccard(s, t) for t in sets) for s in sets]
    expected = real_base.selected(holders[int(np.argmin(totals))]).tolist()
    assert REG.aggregate(real_base, "medClosedApr").features.tolist() == expected


@pytest.mark.parametrize("name", SINGLE)
def test_single_sizes_and_determinism(real_base, name):
    if real_base.scores is None and name in ("meanScore", "geomMean", "l2Norm"):
        pytest.skip("score aggregation on a ranking-only selector")
    if name == "geomMean" and (real_base.scores < 0).any():
        with pytest.raises(ValueError, match="needs non-negative scores; the selector "
                           "'relieff' gives negative ones"):
            REG.aggregate(real_base, name)
        return
    for m in (3, 20):
        a = REG.aggregate(real_base, name, n_features=m, random_state=3)
        b = REG.aggregate(real_base, name, n_features=m, random_state=3)
        assert len(a) == m and np.unique(a.features).size == m
        assert a.features.tolist() == b.features.tolist()
        assert a.provenance["operator"] == name and a.provenance["params"]["n_features"] == m
        np.testing.assert_array_equal(a.names, real_base.feature_names[a.features])


@pytest.mark.parametrize("name", MULTI)
def test_multi_sizes_and_determinism(real_base, name):
    for k in (1, 3, 10):
        a = REG.aggregate(real_base, name, n_signatures=k, random_state=5)
        b = REG.aggregate(real_base, name, n_signatures=k, random_state=5)
        assert len(a) == k
        assert [s.features.tolist() for s in a] == [s.features.tolist() for s in b]
        # k distinct alternatives
        assert len({tuple(sorted(s.features.tolist())) for s in a}) == k
        frame = a.to_frame()
        assert len(frame) == k and (frame["n_features"] == [len(s) for s in a]).all()


def test_closed_apr_support_adapts_and_result_independent_of_threshold(real_base):
    lit = {"strategy": "literal"}
    default = REG.aggregate(real_base, "closedApr", n_features=20, **lit)
    high = REG.aggregate(real_base, "closedApr", n_features=20, min_support=0.95, **lit)
    low_count = max(1, default.provenance["min_count_used"] - 3)
    low = REG.aggregate(real_base, "closedApr", n_features=20, min_support=low_count, **lit)
    assert high.features.tolist() == default.features.tolist() == low.features.tolist()
    assert high.provenance["min_support_requested"] == pytest.approx(
        np.ceil(0.95 * real_base.n_models) / real_base.n_models)
    assert high.provenance["min_support_used"] == default.provenance["min_support_used"]
    # the default threshold is the m-th largest feature frequency
    freq = np.sort(real_base.subsets.mean(axis=0))[::-1]
    assert default.provenance["min_support_used"] == pytest.approx(freq[19])


def test_closed_apr_cut_of_last_itemset():
    # Transactions: {0,1,2,3} x3, {4,5} x2, {6} x1 (b = 6, p = 8). Closed itemsets by
    # support: {0,1,2,3} (3), {4,5} (2), {6} (1). m = 5: take {0,1,2,3}, then one of {4,5}.
    S = np.zeros((6, 8), dtype=bool)
    S[:3, :4] = True
    S[3:5, 4:6] = True
    S[5, 6] = True
    base = _base_from_subsets(S, ranks_bias=[0, 0, 0, 0, 1, 0, 0, 0])
    sig = REG.aggregate(base, "closedApr", n_features=5, strategy="literal")
    # ties in frequency inside {4, 5}: mean rank decides; feature 5 is ranked better
    assert sig.features.tolist()[:4] == [0, 1, 2, 3] and sig.features.tolist()[4] == 5
    assert sig.provenance["cut"] == {"itemset": 1, "kept": [5], "dropped": [4]}
    assert sig.provenance["n_itemsets_used"] == 2


def _base_from_subsets(S, ranks_bias=None):
    from modelmine.base_models import BaseModels

    b, p = S.shape
    template = make_base_models(n_models=b, n_features_in=p, n_features=1)
    bias = np.zeros(p) if ranks_bias is None else np.asarray(ranks_bias, dtype=float)
    # selected features first, then by a fixed preference, then index
    key = -S.astype(float) * 10 + bias[None, :] + np.arange(p)[None, :] * 1e-3
    ranks = np.argsort(np.argsort(key, axis=1), axis=1) + 1
    return BaseModels.from_records(
        subsets=S, ranks=ranks, scores=-key, sample_indices=template.sample_indices,
        feature_names=template.feature_names, n_features=None,
        selector={"name": "hand", "kind": "subset", "params": {}},
        resampling=dict(template.resampling), random_state=0, classes=template.classes,
        n_samples=template.n_samples)


def test_structure_operators_return_base_models(real_base):
    rows = {tuple(sorted(real_base.selected(i).tolist())) for i in range(real_base.n_models)}
    for name in ("mostRep", "largeMed", "medClosedApr", "medMaxApr"):
        sig = REG.aggregate(real_base, name)
        assert tuple(sorted(sig.features.tolist())) in rows, name
        assert sig.provenance["base_model"] in range(real_base.n_models)
    for name in ("allMed", "allMedClosedApr", "allMedMaxApr"):
        for sig in REG.aggregate(real_base, name, n_signatures=4):
            assert tuple(sorted(sig.features.tolist())) in rows, name


def test_large_med_picks_best_silhouette_and_largest_cluster(real_base):
    from modelmine.constants import SILHOUETTE_NO_STRUCTURE
    from modelmine.patterns import jaccard_distances, kmedoids

    sig = REG.aggregate(real_base, "largeMed", k_range=[2, 3, 4])
    dist = jaccard_distances(real_base)
    sils = {k: kmedoids(dist, k).silhouette for k in (2, 3, 4)}
    best = max(sils, key=lambda k: (sils[k], -k))
    if sils[best] < SILHOUETTE_NO_STRUCTURE:  # no clusters: the documented fallback
        assert sig.provenance["no_cluster_structure"] is True
        assert sig.provenance["best_k"] == best
        assert sig.features.tolist() == REG.aggregate(real_base, "mostRep").features.tolist()
        return
    assert sig.provenance["k"] == best
    res = kmedoids(dist, best)
    assert sig.provenance["cluster_size"] == res.sizes.max()
    assert sig.provenance["base_model"] in res.medoids.tolist()


def test_nobagg_is_full_model(real_base):
    sig = REG.aggregate(real_base, "nobagg", n_features=20)
    full = real_base.full_model
    assert set(sig.features.tolist()) == set(np.flatnonzero(full.ranks <= 20).tolist())


def test_max_apr_itemsets_are_maximal(real_base):
    sig = REG.aggregate(real_base, "maxApr", n_features=20)
    count_min = sig.provenance["min_count_used"]
    tx = [set(np.flatnonzero(r).tolist()) for r in real_base.subsets]
    for u in sig.provenance["itemsets"]:
        items = set(u["items"])
        assert sum(items <= t for t in tx) == u["count"] >= count_min
        for j in set(range(real_base.n_features_in)) - items:
            if count(real_base, j) >= count_min:  # no frequent superset by one item
                assert sum((items | {j}) <= t for t in tx) < count_min


@pytest.mark.slow
@pytest.mark.parametrize("dataset", ["colon", "leukemia"])
def test_paper_protocol_b150(base_factory, dataset):
    # (a fixture, not "from conftest import": tests/reliability has a conftest too)
    base = base_factory(dataset, "anova", 150)
    sig = REG.aggregate(base, "closedApr", n_features=20, strategy="literal")
    assert len(sig) == 20
    freq = base.subsets.mean(axis=0)
    assert (freq[sig.features] >= sig.provenance["min_support_used"] - 1e-12).all()
    assert sig.features.tolist() == REG.aggregate(base, "closedApr", n_features=20,
                                                  min_support=0.05,
                                                  strategy="literal").features.tolist()
    default = REG.aggregate(base, "closedApr", n_features=20)  # the paper's reading
    assert default.provenance["strategy"] == "literal" and default.features.tolist() == (
        sig.features.tolist())
    area = REG.aggregate(base, "closedApr", n_features=20, strategy="area")  # mined at 0.2
    assert len(area) == 20 and area.provenance["strategy"] == "area"
    alts = REG.aggregate(base, "allMed", n_signatures=10)
    assert len(alts) == 10 and 0.0 < alts.mean_overlap() < 1.0
    assert len(np.unique(base.subsets, axis=0)) >= 10  # distinct base models
    for a, b in itertools.combinations(alts, 2):
        assert a.overlap(b) < 1.0
