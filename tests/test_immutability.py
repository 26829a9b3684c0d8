"""Every public result type is immutable all the way down: a test tries to change each one."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

import modelmine as mm
from modelmine.patterns import kmedoids

REFUSED = (AttributeError, TypeError, ValueError, dataclasses.FrozenInstanceError)


@pytest.fixture(scope="module")
def run():
    X, y = mm.datasets.load_colon()
    return mm.run(X, y, selector="anova", operators=["closedApr", "allMed"], n_bootstraps=10,
                  n_features=6, n_signatures=3, random_state=0)


def _refuses(action):
    with pytest.raises(REFUSED):
        action()


def _setitem(obj, key, value):
    obj[key] = value


def _write(array):
    array[..., 0] = 1


def test_base_models(run):
    base = run.base_models
    before = base.selector["params"]
    _refuses(lambda: setattr(base, "n_features", 3))
    _refuses(lambda: _setitem(base.selector, "name", "x"))
    _refuses(lambda: _setitem(base.selector["params"], "x", 1))
    _refuses(lambda: base.resampling.update(method="x"))
    _refuses(lambda: base.extra.setdefault("x", 1))
    _refuses(lambda: base.classes.append(5))
    arrays = [base.subsets, base.ranks, base.scores, base.sample_indices, base.feature_names]
    for array in arrays:
        _refuses(lambda a=array: _write(a))
    _refuses(lambda: _write(base.tied_ranks()))
    assert base.selector["params"] == before
    assert pickle.loads(pickle.dumps(base)) == base


def test_signature_and_signature_set(run):
    sig = run.signatures["closedApr"]
    _refuses(lambda: setattr(sig, "operator", "x"))
    _refuses(lambda: _setitem(sig.provenance, "operator", "x"))
    _refuses(lambda: _setitem(sig.provenance["params"], "n_features", 1))
    _refuses(lambda: _write(sig.features))
    _refuses(lambda: _write(sig.names))
    alts = run.signatures["allMed"]
    _refuses(lambda: setattr(alts, "signatures", ()))
    _refuses(lambda: _setitem(alts.provenance, "x", 1))
    _refuses(lambda: _write(alts[0].features))
    # Read-only records still behave as the JSON they stand for.
    assert mm.Signature.from_dict(sig.to_dict()).to_dict() == sig.to_dict()
    assert pickle.loads(pickle.dumps(alts)).to_dict() == alts.to_dict()


def test_mining_run(run):
    _refuses(lambda: setattr(run, "settings", {}))
    _refuses(lambda: _setitem(run.signatures, "closedApr", None))
    _refuses(lambda: _setitem(run.settings, "n_bootstraps", 1))
    _refuses(lambda: run.settings["operators"].append("x"))
    _refuses(lambda: _setitem(run.data, "source", "x"))
    table = run.diagnostics
    table.loc[0, "value"] = -1.0  # a copy: the run keeps its own
    assert run.diagnostics.loc[0, "value"] != -1.0


def test_itemsets_and_kmedoids(run):
    closed = run.itemsets
    for array in (closed.indptr, closed.indices, closed.counts):
        _refuses(lambda a=array: _write(a))
    frame = closed.to_frame()
    frame.loc[0, "count"] = -1
    assert closed.to_frame().loc[0, "count"] != -1
    dist = mm.patterns.jaccard_distances(run.base_models)
    result = kmedoids(dist, 2)
    _refuses(lambda: setattr(result, "loss", 0.0))


def test_evaluation_result():
    X, y = mm.datasets.load_colon()
    res = mm.evaluate(X, y, selectors=["anova"], operators=["mostFreq"], classifiers=["1nn"],
                      n_folds=2, n_bootstraps=3, n_features=5, random_state=0)
    _refuses(lambda: setattr(res, "settings", {}))
    _refuses(lambda: _setitem(res.settings, "n_folds", 9))
    _refuses(lambda: _setitem(res.signatures, ("anova", "mostFreq", 0), None))
    _refuses(lambda: _setitem(res.operator_kinds, "x", "single"))
    _refuses(lambda: _write(res.feature_names))
    _refuses(lambda: _write(res.fold_indices[0][0]))
    _refuses(lambda: _write(next(iter(res.rankings.values()))))
    folds = res.folds
    folds.loc[:, "error"] = np.nan
    assert not res.folds["error"].isna().any()
