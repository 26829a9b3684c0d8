"""Results carry their spec (issue 38, item 2) and the defects of stored settings.

Truths: run directories written by the landed code (``landed_v2/``, written at commit
cf80d14 by ``mm.run`` with ``run_dir``: one finished, one interrupted after its bootstraps;
format version 2) must load, resume and recompute identically; the models a spec makes
again must equal the stored ones (an invariant); closed itemsets at a count support are
checked by brute force.
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import modelmine as mm
from modelmine.cli import main

LANDED = Path(__file__).resolve().parent / "landed_v2"
#: The call that wrote landed_v2 (with run_dir=...finished, and killed after the bootstraps
#: for ...interrupted).
SETTINGS = dict(selector="anova", n_bootstraps=6, n_features=5, n_signatures=2, random_state=3)


def _differences(a, b, where="run"):
    """Where ``a`` and ``b`` differ: structure, integers, text and booleans exactly, floats
    to 1e-12 relative (a BLAS dot product or numpy's vectorised math may end in another
    last bit on another processor: the stored run was written elsewhere)."""
    if isinstance(a, pd.DataFrame):
        if not isinstance(b, pd.DataFrame) or list(a.columns) != list(b.columns):
            return [f"{where}: columns {list(a.columns)} != {getattr(b, 'columns', b)}"]
        return _differences(a.to_dict("list"), b.to_dict("list"), where)
    if isinstance(a, dict):
        # a signature's provenance may gain entries in later versions (the medoid
        # operators' n_distinct_models): the stored ones must be there, unchanged
        added_ok = where.endswith("['provenance']")
        if not isinstance(b, dict) or not (set(b) <= set(a) if added_ok else set(a) == set(b)):
            return [f"{where}: keys {sorted(map(str, a))} != {b!r:.200}"]
        return [d for k in b for d in _differences(a[k], b[k], f"{where}[{k!r}]")]
    if isinstance(a, (list, tuple, np.ndarray)) and not np.isscalar(a):
        a_arr, b_arr = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
        if a_arr.shape != b_arr.shape:
            return [f"{where}: shape {a_arr.shape} != {b_arr.shape}"]
        return [d for i, (x, y) in enumerate(zip(a_arr.ravel(), b_arr.ravel()))
                for d in _differences(x, y, f"{where}[{i}]")][:5]
    if isinstance(a, (float, np.floating)) and isinstance(b, (float, np.floating, int)):
        if np.isnan(a) and np.isnan(b):
            return []
        same = np.isclose(a, b, rtol=1e-12, atol=0) or a == b
        return [] if same else [f"{where}: {a!r} != {b!r}"]
    return [] if a == b else [f"{where}: {a!r:.200} != {b!r:.200}"]


def jsonable(value):
    """``value`` as JSON reads it back (numpy scalars and arrays as numbers and lists)."""
    return json.loads(json.dumps(value, default=lambda o: o.tolist() if hasattr(o, "tolist")
                                 else str(o)))


def _assert_same_run(made, stored):
    """``made == stored`` (base models, signatures with scores and provenance, settings,
    data, diagnostics), every difference named, floats to 1e-12 relative."""
    bm, bs = made.base_models, stored.base_models
    found = [f"base models .{name} differ" for name in ("subsets", "ranks", "sample_indices",
                                                        "feature_names")
             if not np.array_equal(getattr(bm, name), getattr(bs, name))]
    if (bm.scores is None) != (bs.scores is None):
        found.append("base models: scores on one side only")
    elif bm.scores is not None:
        found += [] if np.allclose(bm.scores, bs.scores, rtol=1e-12, atol=0, equal_nan=True) \
            else ["base models' scores differ beyond 1e-12 relative"]
    meta_m, meta_s = bm._meta(), bs._meta()
    meta_m.pop("settings", None)
    meta_s.pop("settings", None)
    found += _differences(meta_m, meta_s, "base models' record")
    found += _differences({k: s.to_dict() for k, s in made.signatures.items()},
                          {k: s.to_dict() for k, s in stored.signatures.items()}, "signatures")
    found += _differences(jsonable(made.settings), jsonable(stored.settings), "settings")
    found += _differences(jsonable(made.data), jsonable(stored.data), "data")
    found += _differences(made.diagnostics_table, stored.diagnostics_table, "diagnostics")
    assert not found, "\n".join(found)


#: The names the embedded colon's columns had when landed_v2 was written (g0001, ...:
#: positional, 1-based); they are x0, x1, ... since issue 52.
LANDED_NAMES = np.array([f"g{j + 1:04d}" for j in range(60)])


@pytest.fixture(scope="module")
def small(colon):
    X, y, _ = colon
    return X[:, :60], y, LANDED_NAMES


def test_a_run_dir_of_the_landed_version_loads_with_its_spec_and_recomputes(small):
    X, y, names = small
    landed = mm.MiningRun.load(LANDED / "finished")
    assert landed.spec == mm.RunSpec(**SETTINGS, signature_size=5)
    # base models saved before they kept their settings: the spec is rebuilt from records
    with np.load(LANDED / "finished" / "base_models.npz") as stored_file:
        assert "settings" not in json.loads(str(stored_file["meta"]))
    assert landed.base_models.spec == mm.RunSpec(**{**SETTINGS, "n_signatures": 10},
                                                 operators=())
    again = mm.run(X, y, **SETTINGS, feature_names=names)
    _assert_same_run(again, landed)  # same base models, signatures, settings, diagnostics
    assert again.spec == landed.spec
    # run.json as the landed version wrote it, key for key
    stored = json.loads((LANDED / "finished" / "run.json").read_text())["settings"]
    assert again.spec.to_settings() == stored


def test_a_checkpoint_of_the_landed_version_resumes_bit_identical(small, tmp_path):
    X, y, names = small
    work = tmp_path / "interrupted"
    shutil.copytree(LANDED / "interrupted", work)
    resumed = mm.resume(work, X, y, feature_names=names)
    _assert_same_run(resumed, mm.MiningRun.load(LANDED / "finished"))


def test_the_spec_is_saved_and_loaded_losslessly(small, tmp_path):
    X, y, _ = small
    for kw in (dict(selector="svm-rfe", scale="standard"),
               dict(selector=["anova", "relieff"]),
               dict(selector="anova", resampling="subsample", stratify=True,
                    max_per_class=20, min_support=2)):
        run = mm.run(X, y, n_bootstraps=4, n_features=5, n_signatures=2, **kw)
        # report=False: the page is not what this test reads (the spec and the run are)
        back = mm.MiningRun.load(run.save(tmp_path / str(len(list(tmp_path.iterdir()))),
                                          report=False))
        assert back.spec == run.spec and back == run
        # the base models' spec makes the same base models again
        assert mm.bootstrap(X, y, spec=run.base_models.spec) == run.base_models
        assert back.base_models.spec == run.base_models.spec
        # the base models keep the run's settings whole (the operators aside), in memory,
        # in a run directory and in their own file
        made, asked = run.base_models.spec, run.spec
        assert [s.describe() for s in made.selectors] == [s.describe() for s in asked.selectors]
        mining = {"selector_params", "operators", "operator_params", "n_signatures",
                  "signature_size", "min_support"}
        assert ({k: v for k, v in made.settings().items() if k not in mining}
                == {k: v for k, v in asked.settings().items() if k not in mining})
        assert made.operators == ()
        alone = tmp_path / f"base{len(list(tmp_path.iterdir()))}.npz"
        assert mm.BaseModels.load(run.base_models.save(alone)).spec == run.base_models.spec
    assert run.spec.max_per_class == 20 and run.base_models.spec.max_per_class == 20


def test_a_count_min_support_is_a_count(small, tmp_path, capsys):
    """min_support=2 is two base models, not the fraction 2.0 (the landed version refused
    it after all the bootstraps); an altered run.json with the count b reports as well."""
    X, y, names = small
    run = mm.run(X, y, **{**SETTINGS, "min_support": 2})
    subsets = run.base_models.subsets
    # brute force: the closed itemsets of support >= 2 among the features ever selected
    cols = np.flatnonzero(subsets.any(axis=0))
    closed = set()
    for size in range(1, 6):
        for items in itertools.combinations(cols, size):
            cover = subsets[:, list(items)].all(axis=1)
            if cover.sum() >= 2:
                closure = frozenset(np.flatnonzero(subsets[cover].all(axis=0)).tolist())
                closed.add(closure)
    got = {frozenset(int(f) for f in s) for s in run.itemsets.to_frame()["items"]}
    assert got == closed
    directory = tmp_path / "run"
    # no page: `modelmine report` below writes it, from the altered run.json
    mm.run(X, y, **SETTINGS, feature_names=names).save(directory, report=False)
    path = directory / "run.json"
    record = json.loads(path.read_text())
    record["settings"]["min_support"] = 6  # the count b: every base model
    path.write_text(json.dumps(record))
    assert main(["report", str(directory)]) == 0, capsys.readouterr().err
    loaded = mm.MiningRun.load(directory)
    every = np.flatnonzero(loaded.base_models.subsets.all(axis=0))
    assert {frozenset(int(f) for f in s) for s in loaded.itemsets.to_frame()["items"]} \
        == ({frozenset(every.tolist())} if every.size else set())


def test_a_refused_stored_setting_names_the_file_and_key(small, tmp_path, capsys):
    X, y, names = small
    # no page: `modelmine report` below reads the altered run.json and refuses it
    directory = mm.run(X, y, **SETTINGS, feature_names=names).save(tmp_path / "run",
                                                                   report=False)
    path = directory / "run.json"
    record = json.loads(path.read_text())
    record["settings"]["n_bootstraps"] = 7
    record["settings"]["resampling"]["method"] = "complementary-pairs"
    path.write_text(json.dumps(record))
    assert main(["report", str(directory)]) == 2
    err = capsys.readouterr().err
    assert "run.json" in err and "'settings.n_bootstraps'" in err and "even" in err
    assert "--n-bootstraps" not in err and "parameter" not in err
    record["settings"]["n_bootstraps"] = 6
    record["settings"]["resampling"]["method"] = "bootstrap"
    record["settings"]["min_support"] = 7  # above b
    path.write_text(json.dumps(record))
    assert main(["report", str(directory)]) == 2
    err = capsys.readouterr().err
    assert "'settings.min_support'" in err and "run.json" in err
    assert "--min-support" not in err


def test_per_class_run_gives_its_panels_by_default():
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 20)
    X = rng.normal(size=(60, 30))
    for k in range(3):
        X[y == "abc"[k], k] += 3
    X = pd.DataFrame(X, columns=[f"g{j}" for j in range(30)])
    run = mm.run(X, y, selector="anova", operators=["mostFreq"], n_bootstraps=6,
                 n_features=3, per_class=True)
    default = run.markers()
    assert set(default.panel) == {"per_class"}
    pd.testing.assert_frame_equal(default, run.markers(per_class=True))
    pooled = run.markers(per_class=False)
    assert set(pooled.panel) == {"pooled"}
    with pytest.raises(ValueError, match=r"'null' parameter of MiningRun\.markers"):
        run.markers(null=object())
    plain = mm.run(X, y, selector="anova", operators=["mostFreq"], n_bootstraps=6,
                   n_features=3)
    assert set(plain.markers().panel) == {"pooled"}


def test_a_bootstrap_run_dir_resumes_with_its_outcome_and_cap(tmp_path):
    """The bootstrap stage's resume reads every setting its manifest records (the outcome
    and max_per_class were left at their defaults: a regression run could not resume)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 10))
    y = X[:, 0] + 0.1 * rng.normal(size=40)
    base = mm.bootstrap(X, y, selector="lasso", outcome="regression", n_bootstraps=4,
                        n_features=3, run_dir=tmp_path / "reg")
    assert mm.resume(tmp_path / "reg", X, y) == base
    labels = np.repeat(["a", "b"], [30, 10])
    capped = mm.bootstrap(X, labels, selector="anova", n_bootstraps=4, n_features=3,
                          stratify=True, max_per_class=8, run_dir=tmp_path / "cap")
    assert mm.resume(tmp_path / "cap", X, labels) == capped
    assert capped.spec.max_per_class == 8


def test_the_run_comparison_finds_what_differs():
    """The comparator of the landed-run tests fails on real differences (a test that could
    not fail would prove nothing): a float beyond 1e-12, a feature, a lost provenance entry."""
    assert not _differences({"x": [1.0, 2.0]}, {"x": [1.0, 2.0 * (1 + 1e-14)]})
    assert _differences({"x": [1.0, 2.0]}, {"x": [1.0, 2.0 * (1 + 1e-9)]})
    assert _differences({"features": [1, 2]}, {"features": [1, 3]})
    prov = "signatures['allMed']['provenance']"
    assert not _differences({"loss": 1.0, "new": 2}, {"loss": 1.0}, prov)
    assert _differences({"loss": 1.0}, {"loss": 1.0, "lost": 2}, prov)
    assert _differences({"loss": 1.0, "new": 2}, {"loss": 1.0}, "settings")
