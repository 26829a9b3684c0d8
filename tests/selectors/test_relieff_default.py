"""ReliefF's default is WEKA's (issue 37, item 2); records written before keep their meaning.

Truths: WEKA 3.6 itself (``ReliefFAttributeEval``, ``tests/weka_oracle.py``: skipped without
java, an error under ``MODELMINE_REQUIRE_WEKA=1``) for the new default; scikit-rebate itself
(``skrebate.ReliefF``) for the records written while its ReliefF was the default, which
left ``variant`` out (``{"n_neighbors": 10}``): a BaseModels file (with and without its
settings record), a run directory's ``run.json``, a bootstrap manifest being resumed and
the evaluation cache. A record read the wrong way would build WEKA's ReliefF, whose scores
differ from scikit-rebate's on colon (``docs/weka_relieff_svm.md``), so each check can fail.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from skrebate import ReliefF
from weka_batch import Arffs, Scores, run, scores_of
from weka_oracle import requires_weka

import modelmine as mm
from modelmine import RunSpec
from modelmine.pipeline import resume as resume_bootstrap
from modelmine.selectors import get_selector

ReliefFSelector = type(get_selector("relieff"))

#: What ``ReliefFSelector.get_params`` wrote for the default before issue 37.
OLD_DEFAULT = {"n_neighbors": 10}
SKREBATE = {"variant": "skrebate"}


@pytest.fixture(scope="module")
def data(colon):
    X, y, _ = colon
    return np.asarray(X[:, :200], dtype=np.float64), np.asarray(y)


@pytest.fixture(scope="module")
def skrebate_scores(data):
    X, y = data
    return ReliefF(n_neighbors=10).fit(X, y).feature_importances_


@pytest.fixture(scope="module")
def pinned(data):
    """Base models of scikit-rebate's ReliefF, fitted with the variant stated."""
    X, y = data
    return mm.bootstrap(X, y, "relieff", selector_params=SKREBATE, n_bootstraps=3,
                        n_features=10, random_state=0)


def _old(base: mm.BaseModels, path: Path, settings: dict | None = None) -> Path:
    """``base`` saved at ``path`` as an earlier release wrote it for the default ReliefF:
    the selector's record without ``variant`` (format 1, no checksum), and no settings
    record unless ``settings``."""
    base.save(path)
    with np.load(path, allow_pickle=False) as arch:
        arrays = {k: arch[k] for k in arch.files}
    meta = json.loads(str(arrays.pop("meta")))
    meta.pop("sha256", None)
    meta.pop("settings", None)
    meta["format_version"] = 1
    meta["selector"] = {**meta["selector"], "params": OLD_DEFAULT}
    if settings:
        meta["settings"] = json.loads(json.dumps(settings, default=dict))
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)
    return path


def _stored_params(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as arch:
        return json.loads(str(arch["meta"]))["selector"]["params"]


def _scores(selector, data) -> np.ndarray:
    X, y = data
    return selector.select(X, y, random_state=0).scores


# ------------------------------------------------------------------ the new default
@requires_weka
def test_the_default_relieff_is_weka_relieff_attribute_eval(tmp_path, data):
    X, y = data
    sel = get_selector("relieff")
    assert sel.get_params() == {"n_neighbors": 10, "variant": "weka"}
    arff = Arffs(tmp_path)(X, np.unique(y, return_inverse=True)[1])
    (out,) = run([Scores(arff, "ReliefFAttributeEval")])
    weka = scores_of(out, X.shape[1])
    ours = _scores(sel, data)
    assert np.all(np.abs(ours - weka) <= 1e-9 * np.maximum(1e-3, np.abs(weka)))


def test_the_default_moved_from_skrebate_and_skrebate_stays_available(data, skrebate_scores):
    np.testing.assert_allclose(_scores(get_selector("relieff", SKREBATE), data),
                               skrebate_scores, rtol=0, atol=1e-9)
    assert np.abs(_scores(get_selector("relieff"), data) - skrebate_scores).max() > 1e-3


def test_every_record_states_the_variant():
    assert get_selector("relieff", SKREBATE).get_params() == {"n_neighbors": 10, **SKREBATE}
    assert get_selector("relieff", {"weight_by_distance": True}).get_params() == {
        "n_neighbors": 10, "variant": "weka", "weight_by_distance": True, "sigma": 2.0}
    # the settings of a run (run.json, checkpoint.json, the BaseModels' settings) too, so a
    # default left unsaid today is not read as scikit-rebate's tomorrow
    assert RunSpec(selector="relieff").to_settings()["selector_params"] == {"variant": "weka"}
    hetero = RunSpec(selector=["anova", "relieff"]).to_settings()
    assert hetero["selector_params"] == {"relieff": {"variant": "weka"}}
    assert RunSpec(selector="anova").to_settings()["selector_params"] == {}


def test_distance_weighting_is_wekas_only():
    with pytest.raises(ValueError, match=r"'variant' parameter of ReliefFSelector must be "
                                         r"'weka' with weight_by_distance=True.*Got 'skrebate'"):
        ReliefFSelector(weight_by_distance=True, variant="skrebate")


# --------------------------------------------------------- records written before
def test_an_old_base_models_file_loads_as_skrebate(tmp_path, data, pinned, skrebate_scores):
    X, y = data
    path = _old(pinned, tmp_path / "old.npz")
    assert _stored_params(path) == OLD_DEFAULT  # the file holds the old record
    loaded = mm.BaseModels.load(path)
    assert dict(loaded.selector["params"]) == {**OLD_DEFAULT, **SKREBATE}
    # no settings record: the spec is rebuilt from the records (_spec_from_records)
    (sel,) = loaded.spec.selectors
    np.testing.assert_allclose(_scores(sel, data), skrebate_scores, rtol=0, atol=1e-9)
    assert mm.bootstrap(X, y, spec=loaded.spec) == pinned
    # a file with its settings record, as to_settings wrote the default: no parameters
    path = _old(pinned, tmp_path / "s.npz", {**pinned.settings, "selector_params": {}})
    assert mm.BaseModels.load(path).spec == pinned.spec


def test_an_old_run_directory_loads_as_skrebate(tmp_path, data, skrebate_scores):
    X, y = data
    run = mm.run(X, y, selector="relieff", selector_params=SKREBATE, n_bootstraps=3,
                 n_features=5, n_signatures=2, random_state=1)
    directory = run.save(tmp_path / "run", report=False)  # the records, not the page
    meta = json.loads((directory / "run.json").read_text())
    meta["settings"]["selector_params"] = dict(OLD_DEFAULT)  # as _mine wrote it
    (directory / "run.json").write_text(json.dumps(meta))
    _old(run.base_models, directory / "base_models.npz")
    loaded = mm.MiningRun.load(directory)
    assert loaded.spec == run.spec
    assert loaded.spec.selectors[0].variant == "skrebate"
    np.testing.assert_allclose(_scores(loaded.spec.selectors[0], data), skrebate_scores,
                               rtol=0, atol=1e-9)
    assert loaded.base_models.spec.selectors[0].variant == "skrebate"


@pytest.mark.parametrize("params", [
    {},  # RunSpec.to_settings of the default (checkpoint.json, BaseModels settings)
    {"relieff": OLD_DEFAULT},
    {"selectors": [{"name": "anova", "kind": "scores", "params": {}},  # run.json
                   {"name": "relieff", "kind": "scores", "params": OLD_DEFAULT}]},
])
def test_old_heterogeneous_settings_read_as_skrebate(params):
    now = RunSpec(selector=["anova", "relieff"], selector_params={"relieff": SKREBATE})
    settings = {**now.to_settings(), "selector": "anova+relieff", "selector_params": params}
    read = RunSpec.from_settings(settings)
    assert [s.describe() for s in read.selectors] == [s.describe() for s in now.selectors]
    assert read.replace(selector_params=now.selector_params) == now


def test_an_old_distance_weighted_record_stays_weka():
    now = RunSpec(selector="relieff", selector_params={"weight_by_distance": True})
    old = {**now.to_settings(), "selector_params": {"weight_by_distance": True}}
    assert RunSpec.from_settings(old) == now
    assert now.selectors[0].variant == "weka"


def test_an_old_bootstrap_manifest_resumes_as_skrebate(tmp_path, data, pinned):
    X, y = data
    run = tmp_path / "run"
    mm.bootstrap(X, y, "relieff", selector_params=SKREBATE, n_bootstraps=3, n_features=10,
                 random_state=0, run_dir=run, checkpoint_every=1)
    # as an earlier release left it when interrupted after its first chunk
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["settings"]["selector"]["params"] = dict(OLD_DEFAULT)
    for cid in ("1", "2"):
        (run / manifest["chunks"].pop(cid)["file"]).unlink()
    manifest.update(complete=False, full_model=None)
    for name in ("full_model.npz", "base_models.npz"):
        (run / name).unlink(missing_ok=True)
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert resume_bootstrap(run, X, y) == pinned  # read as WEKA's: "different settings"


def test_a_cache_of_skrebate_models_is_not_reused_for_the_weka_default(
        tmp_path, data, monkeypatch):
    X, y = data
    kw = dict(operators=["mostFreq"], classifiers=["1nn"], n_folds=3, n_bootstraps=3,
              n_features=5, n_signatures=1, random_state=2, n_jobs=1, progress=False)
    weka = mm.evaluate(X, y, selectors=["relieff"], **kw)
    skrebate = mm.evaluate(X, y, selectors={"relieff": get_selector("relieff", SKREBATE)},
                           **kw)
    assert not skrebate.folds.equals(weka.folds)  # the two variants give other results
    # the cache an earlier release filled for the default ReliefF: scikit-rebate's models
    # under keys whose selector record has no variant
    with monkeypatch.context() as m:
        m.setattr(ReliefFSelector, "get_params", lambda self: {"n_neighbors": 10})
        old = mm.evaluate(X, y, selectors={"relieff": get_selector("relieff", SKREBATE)},
                          cache_dir=tmp_path, **kw)
    assert len(list(tmp_path.glob("relieff_fold*.npz"))) == 3
    assert all(_stored_params(p) == OLD_DEFAULT for p in tmp_path.glob("*.npz"))
    again = mm.evaluate(X, y, selectors=["relieff"], cache_dir=tmp_path, **kw)
    assert not again.tasks.cached.any()
    assert again.folds.equals(weka.folds) and old.folds.equals(skrebate.folds)


def _counts_data(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(n, 4)).astype(np.float64)
    y = (X[:, 0] + rng.integers(0, 2, size=n) > 2).astype(np.int64)
    return X, y


class _AboveTheBudget(ReliefFSelector):
    """scikit-rebate's ReliefF whose ``prepare`` answers as above the budget (None, what
    the real one returns for 4,500 rows), whatever the number of rows."""

    def prepare(self, X, y):
        return None


def _falls_back_to_each_resample_alone(selector, n: int) -> None:
    """Bootstrap of ``selector`` on ``n`` rows: every base model equals ReliefF fitted on
    its resample alone."""
    X, y = _counts_data(n)
    base = mm.bootstrap(X, y, selector=selector, n_bootstraps=2, n_features=2,
                        random_state=0, progress=False, n_jobs=1)
    for b in range(2):
        rows = base.sample_indices[b]
        alone = selector.select(X[rows], y[rows], random_state=0).scores
        np.testing.assert_array_equal(base.scores[b], alone.astype(np.float32))


def test_skrebate_shared_counts_beyond_the_budget_fall_back_with_the_figures():
    """Issue 37, memory: scikit-rebate's shared route keeps n x n mismatch counts (28 n^2
    bytes while built). For 4,500 rows that is 541 MiB, above the 512 MiB budget: the
    shared route is refused before anything is allocated (``prepare`` returns None), with
    a warning that gives the figures, and no memory is asked for it. With that answer the
    resamples compute their own distances, and every base model equals ReliefF fitted on
    its resample alone: checked here on 450 rows, and at 4,500 under the real budget in the
    slow twin below."""
    X, y = _counts_data(4500)
    selector = mm.selectors.get_selector("relieff", {"variant": "skrebate"})
    with pytest.warns(RuntimeWarning, match=r"541 MiB for 4,500 rows.*512 MiB"):
        assert selector.prepare(X, y) is None
    assert selector.prepare_nbytes(X, y) == 0
    _falls_back_to_each_resample_alone(_AboveTheBudget(variant="skrebate"), 450)


@pytest.mark.slow
def test_skrebate_shared_counts_beyond_the_real_budget_fall_back_at_full_size():
    """The fallback of the test above at its real size: 4,500 rows (541 MiB) under the
    512 MiB budget, two resamples each equal to ReliefF fitted alone (the fast tier checks
    the figures at this size and the fallback's scores on 450 rows)."""
    selector = mm.selectors.get_selector("relieff", {"variant": "skrebate"})
    with pytest.warns(RuntimeWarning, match=r"541 MiB for 4,500 rows.*512 MiB"):
        _falls_back_to_each_resample_alone(selector, 4500)
