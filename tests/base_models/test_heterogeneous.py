"""Heterogeneous ensembles (Salman 2022, BAM): several selectors on the same resamples.

Independent truths: each selector's block equals a single-selector bootstrap with the same
seed (the resamples depend only on the seed); the operator conformance suite over every
built-in on the pooled models; the two-level mean / mean aggregation recomputed by hand
with numpy.
"""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm
from modelmine.exceptions import NotApplicableError
from modelmine.operators import OperatorRegistry
from modelmine.testing import check_operator

REG = OperatorRegistry(group=None)
SELECTORS = ["ig", "su", "chi2", "mrmr"]


@pytest.fixture(scope="module")
def data():
    X, y = mm.datasets.load_colon()
    return np.asarray(X)[:, :150], np.asarray(y)


@pytest.fixture(scope="module")
def hetero(data):
    X, y = data
    return mm.bootstrap(
        X,
        y,
        SELECTORS,
        n_bootstraps=6,
        n_features=8,
        random_state=7,
        selector_params={"mrmr": {"n_selected": 20}},
    )


def test_blocks_equal_single_selector_runs(data, hetero):
    X, y = data
    assert hetero.n_models == 24
    assert hetero.selector_names == tuple(SELECTORS)
    assert hetero.model_selectors == tuple(np.repeat(SELECTORS, 6))
    for q, name in enumerate(SELECTORS):
        params = {"n_selected": 20} if name == "mrmr" else None
        single = mm.bootstrap(
            X,
            y,
            name,
            n_bootstraps=6,
            n_features=8,
            random_state=7,
            selector_params=params,
            fit_full=False,
        )
        rows = slice(6 * q, 6 * q + 6)
        np.testing.assert_array_equal(hetero.sample_indices[rows], single.sample_indices)
        np.testing.assert_array_equal(hetero.ranks[rows], single.ranks)
        np.testing.assert_array_equal(hetero.scores[rows], single.scores)
        assert hetero.models_of(name) == single


def test_save_load_keeps_model_selectors(hetero, tmp_path):
    back = mm.BaseModels.load(hetero.save(tmp_path / "h.npz"))
    assert back == hetero
    assert back.model_selectors == hetero.model_selectors


def test_parallel_equals_serial(data):
    X, y = data
    a = mm.bootstrap(X, y, ["anova", "ig"], n_bootstraps=4, n_features=5, random_state=3)
    b = mm.bootstrap(X, y, ["anova", "ig"], n_bootstraps=4, n_features=5, random_state=3, n_jobs=2)
    assert a == b


@pytest.mark.parametrize("name", REG.names())
def test_every_operator_passes_conformance_on_pooled_models(hetero, name):
    if name == "nobagg":  # no single full-data model in a heterogeneous ensemble
        with pytest.raises(NotApplicableError, match="nobagg"):
            mm.aggregate(hetero, name)
        return
    # Error-controlled operators need complementary pairs / artificial features: these
    # bootstrap models have neither, so they refuse them (as evaluate expects).
    if {"error-control", "artificial-features"} & set(REG.get(name).requires):
        with pytest.raises(NotApplicableError):
            REG.aggregate(hetero, name)
        return
    check_operator(name, hetero, registry=REG, n_features=5, n_signatures=3)


def test_score_aggregation_names_ranking_only_selector(data):
    X, y = data
    base = mm.bootstrap(X, y, ["ig", "svm-rfe"], n_bootstraps=3, n_features=5, random_state=0)
    assert base.extra["selectors_without_scores"] == ["svm-rfe"]
    assert np.isnan(base.scores[3:]).all() and np.isfinite(base.scores[:3]).all()
    # tied_ranks falls back to the ranks of the ranking-only selector
    np.testing.assert_array_equal(base.tied_ranks()[3:], base.ranks[3:])
    for op in ("meanScore", "geomMean", "l2Norm"):
        with pytest.raises(NotApplicableError, match="'svm-rfe' give only rankings"):
            mm.aggregate(base, op)
    with pytest.raises(NotApplicableError, match="selector 'svm-rfe'"):
        mm.aggregate(base, "meanScore", within="selector")
    assert len(mm.aggregate(base, "avgRank", within="selector", between="meanScore")) == 5
    check_operator("avgRank", base, registry=REG, n_features=5)


def _minmax(v):
    return (v - v.min()) / (v.max() - v.min())


def test_two_level_mean_equals_hand_computation(hetero):
    sig = mm.aggregate(hetero, "meanScore", within="selector", between="meanScore", n_features=10)
    per_selector = [
        _minmax(
            hetero.scores[np.asarray(hetero.model_selectors) == s].astype(np.float64).mean(axis=0)
        )
        for s in SELECTORS
    ]
    combined = np.mean(per_selector, axis=0)
    expected = np.lexsort((np.arange(combined.size), -np.round(combined, 6)))[:10]
    assert set(sig.features) == set(expected)
    np.testing.assert_allclose(
        np.sort(sig.scores)[::-1], np.sort(combined[expected])[::-1], rtol=1e-5
    )
    assert sig.provenance["within"]["operator"] == "meanScore"
    assert set(sig.provenance["within"]["selectors"]) == set(SELECTORS)


def test_two_level_rank_within_score_between(hetero):
    sig = mm.aggregate(hetero, "stuart", within="selector", between="rra", n_features=6)
    assert sig.operator == "stuart/rra" and len(sig) == 6


def test_bad_input(data, hetero):
    X, y = data
    with pytest.raises(ValueError, match=r"list of distinct selectors.*repeated: 'ig'"):
        mm.bootstrap(X, y, ["ig", "su", "ig"], n_bootstraps=2)
    with pytest.raises(ValueError, match=r"one of 'chi2'.*Got 'infogain'"):
        mm.bootstrap(X, y, ["ig", "infogain"], n_bootstraps=2)
    with pytest.raises(ValueError, match="'selector_params' parameter"):
        mm.bootstrap(X, y, ["ig", "su"], n_bootstraps=2, selector_params={"chi2": {}})
    with pytest.raises(
        ValueError, match="'within' parameter of aggregate must be None or 'selector'"
    ):
        mm.aggregate(hetero, "meanScore", within="fold")
    with pytest.raises(ValueError, match="'between' parameter"):
        mm.aggregate(hetero, "meanScore", within="selector", between="mean")
    with pytest.raises(
        ValueError, match="'between' parameter of aggregate must be None unless within='selector'"
    ):
        mm.aggregate(hetero, "meanScore", between="rra")
    with pytest.raises(ValueError, match="'operator' parameter"):
        mm.aggregate(hetero, "allMed", within="selector")
    with pytest.raises(ValueError, match=r"'selector' parameter of BaseModels\.models_of"):
        hetero.models_of("relieff")


@pytest.fixture(scope="module")
def mixed(data):
    """A ranking-only (NaN scores), a scoring and a subset-choosing selector pooled."""
    X, y = data
    return mm.bootstrap(X, y, ["anova", "svm-rfe", "l1-logistic"], n_bootstraps=3,
                        n_features=5, random_state=1)


def test_save_load_keeps_nan_rows_and_subset_selectors(mixed, tmp_path):
    """Format 2's checks (finite scores, subsets = top m ranks) read per model: the NaN rows
    of a ranking-only selector and the own subsets of a subset selector load back."""
    assert mixed.extra["selectors_without_scores"] == ["svm-rfe"]
    assert mixed.subsets[6:].sum(axis=1).max() <= 5
    back = mm.BaseModels.load(mixed.save(tmp_path / "m.npz"))
    assert back == mixed
    assert back.model_selectors == mixed.model_selectors
    assert back.models_of("l1-logistic") == mixed.models_of("l1-logistic")


def _rewrite(path, edit):
    import json

    from modelmine.base_models import _base_models

    with np.load(path, allow_pickle=False) as arch:
        arrays = {k: arch[k] for k in arch.files}
    meta = json.loads(str(arrays.pop("meta")))
    meta.pop("sha256")
    edit(arrays, meta)
    meta["sha256"] = _base_models._checksum(meta, arrays)
    arrays["meta"] = np.array(json.dumps(meta))
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)


def _set_subset_bit(arrays, row):
    """Add one more feature (the worst ranked not yet in it) to model ``row``'s subset."""
    subsets = np.unpackbits(arrays["subsets"], axis=1, count=150).astype(bool)
    out = np.flatnonzero(~subsets[row])
    subsets[row, out[np.argmax(arrays["ranks"][row, out])]] = True
    arrays["subsets"] = np.packbits(subsets, axis=1)


@pytest.mark.parametrize("edit, pattern", [
    (lambda a, m: m["extra"]["model_selectors"].pop(), "names 8 models; there are 9"),
    (lambda a, m: m["extra"].__setitem__("model_selectors", ["ig"] * 9), "name ['ig']"),
    (lambda a, m: m["extra"].pop("model_selectors"), "lacks the field 'extra.model_selectors'"),
    (lambda a, m: m["selector"]["params"].__setitem__("selectors", []), "non-empty list"),
    (lambda a, m: m["extra"].__setitem__("selectors_without_scores", []), "NaN or infinite"),
    (lambda a, m: a["scores"].__setitem__((0, 0), np.nan), "NaN or infinite"),
    (lambda a, m: a["scores"].__setitem__((3, 0), 1.0), "are not NaN"),
    (lambda a, m: _set_subset_bit(a, 0), "top 'n_features' ranks"),  # an anova model
    (lambda a, m: _set_subset_bit(a, 8), "more than the 5 features"),  # an l1-logistic one
])
def test_inconsistent_heterogeneous_records_are_refused(mixed, tmp_path, edit, pattern):
    from modelmine.exceptions import DataError

    path = mixed.save(tmp_path / "m.npz")
    _rewrite(path, edit)
    with pytest.raises(DataError) as info:
        mm.BaseModels.load(path)
    assert pattern in str(info.value) and str(path) in str(info.value), str(info.value)


def test_every_selector_is_checked_before_the_first_fit(data, monkeypatch):
    """Hardening's checks (here: a binary-only selector on three classes) run for every
    selector of the list before any is fitted."""
    from modelmine.base_models import _bootstrap

    X, y = data
    three = np.arange(y.size) % 3
    fitted = []
    monkeypatch.setattr(_bootstrap, "_fit_selector", lambda sel, *a, **kw: fitted.append(sel))
    with pytest.raises(ValueError, match="'y' parameter of bootstrap must be binary for "
                                         "selector 'l1-logistic'"):
        mm.bootstrap(X, three, ["anova", "l1-logistic"], n_bootstraps=2, n_features=5)
    assert fitted == []
    with pytest.raises(ValueError, match="'run_dir' parameter of bootstrap must be None"):
        mm.bootstrap(X, y, ["anova", "ig"], n_bootstraps=2, run_dir="somewhere")
