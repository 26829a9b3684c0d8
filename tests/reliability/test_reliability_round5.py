"""Regression tests of round five (issue 50, docs/reliability.md), one section per item.

Each test was written against the defect and failed before its fix.
"""

from __future__ import annotations

import json
import os
import shlex
import warnings
from pathlib import Path

import numpy as np
import pytest
from reliability_helpers import FAST, bad, copy_tree, no_hang, small_frame

import modelmine as mm
from modelmine.base_models import DamagedCheckpointError, RunDirectoryError
from modelmine.cli import main

# ----------------------------------------------------------- 1. damaged checkpoints refitted
#: The child stops itself once its third chunk is checkpointed (it says so in a file and
#: waits to be killed), so the kill lands at a known moment: chunks 0-2 of 4 saved.
_KILLED_RUN = """
import sys, time
from modelmine.base_models import _rundir
from modelmine.cli import main

write_chunk = _rundir.RunDirectory.write_chunk

def write_and_stop(self, cid, arrays):
    write_chunk(self, cid, arrays)
    if cid == 2:
        with open(sys.argv[2], "w") as fh:
            fh.write("1")
        time.sleep(600)

_rundir.RunDirectory.write_chunk = write_and_stop
sys.exit(main(["run", sys.argv[3], "-t", "y", "-s", "anova", "-b", "40", "-m", "5",
               "--seed", "4", "--out", sys.argv[1], "-q"]))
"""


def test_a_killed_run_with_damaged_chunks_resumes_bit_identical(
    tmp_path, capsys, killed_when_written, data_csv, report_page_left_out
):
    out, stopped = tmp_path / "run", tmp_path / "stopped"
    killed_when_written(_KILLED_RUN, out, stopped, data_csv, marker=stopped)
    boot = tmp_path / ".run.partial" / "bootstraps"
    assert sorted(p.name for p in boot.glob("chunk-*")) == [
        "chunk-00000.npz", "chunk-00001.npz", "chunk-00002.npz"]
    data = (boot / "chunk-00000.npz").read_bytes()
    (boot / "chunk-00000.npz").write_bytes(data[: len(data) // 2])  # truncated
    (boot / "chunk-00001.npz").unlink()  # deleted
    assert main(["run", "--resume", str(out), "-q"]) == 0
    err = capsys.readouterr().err
    note = [line for line in err.splitlines() if "damaged" in line]
    assert len(note) == 1, err
    assert "chunk-00000.npz (its checksum does not match" in note[0], note
    assert "chunk-00001.npz (missing)" in note[0] and "their 20 base models" in note[0]
    data = mm.datasets.read_data(data_csv, "y")
    truth = mm.bootstrap(data.X, data.y, selector="anova", n_bootstraps=40, n_features=5,
                         random_state=4, feature_names=data.feature_names)
    assert mm.BaseModels.load(out) == truth


def test_a_chunk_with_wrong_content_is_refitted_not_refused(tmp_path):
    # A chunk whose checksum matches (the manifest was rewritten) but lacks an array: it
    # was refused (issue 14, "the run is corrupt"); every chunk is determined by the seed.
    frame = small_frame()
    X, y = frame.drop(columns="y").to_numpy(), frame["y"].to_numpy()
    kw = dict(selector="anova", n_bootstraps=12, n_features=5, random_state=3)
    run = tmp_path / "run"
    truth = mm.bootstrap(X, y, run_dir=run, checkpoint_every=4, **kw)
    chunk = run / "chunk-00002.npz"
    with np.load(chunk) as arch:
        arrays = {k: arch[k] for k in arch.files if k != "ranks"}
    np.savez_compressed(chunk, **arrays)
    manifest = json.loads((run / "manifest.json").read_text())
    import hashlib

    manifest["chunks"]["2"]["sha256"] = hashlib.sha256(chunk.read_bytes()).hexdigest()
    (run / "full_model.npz").unlink()
    (run / "manifest.json").write_text(json.dumps(manifest))
    with pytest.warns(RuntimeWarning, match=r"chunk-00002.npz \(it lacks the array"):
        resumed = mm.resume(run, X, y)
    assert resumed == truth
    # ... and the refitted files are recorded again: a second resume reads them as they are
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert mm.resume(run, X, y) == truth


def test_a_damaged_bootstrap_manifest_refits_every_chunk_from_the_seed(
    tmp_path, capsys, interrupted_run, finished_run, report_page_left_out
):
    # the seed is recorded twice (checkpoint.json, then the bootstraps' manifest): a
    # manifest that is not JSON stranded the run ("the manifest is corrupt", forever)
    partial = copy_tree(interrupted_run, tmp_path / ".run.partial")
    manifest = partial / "bootstraps" / "manifest.json"
    manifest.write_bytes(manifest.read_bytes()[:50])  # truncated
    out = tmp_path / "run"
    assert main(["run", "--resume", str(out), "-q"]) == 0
    err = capsys.readouterr().err
    assert "is damaged" in err and "fitted again from the recorded seed 1" in err, err
    assert mm.BaseModels.load(out) == mm.BaseModels.load(finished_run)


def test_a_checkpoint_that_cannot_be_continued_names_a_command_that_works(
    tmp_path, capsys, interrupted_run, report_page_left_out
):
    # a manifest naming a file outside the run is refused (never read), and --resume would
    # fail the same way forever: the message names the command that starts over
    partial = copy_tree(interrupted_run, tmp_path / ".run.partial")
    manifest_path = partial / "bootstraps" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["chunks"]["0"]["file"] = "../../elsewhere.npz"
    manifest_path.write_text(json.dumps(manifest))
    out = tmp_path / "run"
    err = bad(["run", "--resume", out], capsys, "leaves the run directory",
              "cannot be resumed", "--force")
    assert "continue it with `modelmine run --resume" not in err
    command = err.split("start over with `", 1)[1].split("`", 1)[0]
    argv = shlex.split(command)
    assert argv[:2] == ["modelmine", "run"] and argv[-1] == "--force"
    assert main(argv[1:]) == 0  # the command named works
    assert mm.BaseModels.load(out).n_models == 12


def test_damage_is_a_run_directory_error_of_its_own():
    assert issubclass(DamagedCheckpointError, RunDirectoryError)
    assert issubclass(DamagedCheckpointError, mm.exceptions.DataError)


# ------------------------------------------------ 2. the sample sheet's metadata columns
@pytest.fixture
def expression_and_sheet(tmp_path):
    """An expression table (sample IDs first) and a sample sheet in another order, with
    one sample the table lacks and one table sample without a label (docs/cli.md)."""
    import pandas as pd

    rng = np.random.default_rng(5)
    ids = [f"S{i:02d}" for i in range(24)]
    frame = pd.DataFrame(rng.normal(size=(24, 6)), columns=[f"g{j}" for j in range(6)],
                         index=pd.Index(ids, name="sample"))
    frame.to_csv(tmp_path / "expr.tsv", sep="\t")
    sheet = pd.DataFrame({"sample": ids, "class": np.where(np.arange(24) % 2, "T", "N"),
                          "patient": [f"P{i // 2}" for i in range(24)],
                          "age": rng.integers(30, 80, 24), "w": rng.uniform(0.5, 2, 24)})
    sheet.loc[3, "class"] = None  # S03 has no label: left out
    sheet = pd.concat([sheet, pd.DataFrame({"sample": ["X99"], "class": ["T"],
                                            "patient": ["P99"], "age": [50], "w": [1.0]})])
    sheet = sheet.iloc[::-1]  # the sheet's order is not the table's
    sheet.to_csv(tmp_path / "samples.tsv", sep="\t", index=False)
    return tmp_path / "expr.tsv", tmp_path / "samples.tsv", sheet.set_index("sample")


def test_groups_covariates_and_weights_are_read_from_the_sample_sheet(expression_and_sheet):
    expr, sheet_path, sheet = expression_and_sheet
    data = mm.datasets.read_data(expr, labels=sheet_path, labels_column="class",
                                 groups="patient", covariates=["age"], sample_weight="w")
    kept = [f"S{i:02d}" for i in range(24) if i != 3]
    assert list(data.sample_names) == kept
    assert list(data.groups) == list(sheet.loc[kept, "patient"])
    np.testing.assert_allclose(data.sample_weight, sheet.loc[kept, "w"].to_numpy(float),
                               rtol=1e-15)
    assert data.covariates["age"].dtype.kind in "iuf"  # a number, not text to one-hot
    assert list(data.covariates["age"]) == list(sheet.loc[kept, "age"])
    assert list(data.feature_names) == [f"g{j}" for j in range(6)]


def test_the_sample_sheet_columns_reach_the_run(tmp_path, capsys, expression_and_sheet,
                                               report_page_left_out):
    expr, sheet_path, _ = expression_and_sheet
    out = tmp_path / "run"
    assert main(["run", str(expr), "--labels", str(sheet_path), "--labels-column", "class",
                 "--groups", "patient", *FAST, "--out", str(out)]) == 0
    record = json.loads((out / "run.json").read_text())
    assert record["settings"]["design"]["groups"]["n_groups"] == 12
    assert record["data"]["read_options"]["groups"] == "patient"


def test_a_sheet_column_missing_a_value_or_in_neither_file_is_refused_by_name(
    tmp_path, capsys, expression_and_sheet
):
    expr, sheet_path, sheet = expression_and_sheet
    common = [expr, "--labels", sheet_path, "--labels-column", "class", *FAST, "--out",
              tmp_path / "o"]
    err = bad(["run", *common, "--covariate", "stage"], capsys, "--covariate 'stage'",
              f"not a column of {str(expr)!r}", "nor of the --labels sheet", "'patient'")
    sheet.loc["S07", "patient"] = None
    sheet.reset_index().to_csv(sheet_path, sep="\t", index=False)
    err = bad(["run", *common, "--groups", "patient"], capsys, "--groups 'patient'",
              "no value for 1 of the 23 labelled samples: 'S07'")
    err = bad(["run", expr, "--target", "class", "--groups", "patient", *FAST, "--out",
               tmp_path / "o"], capsys, "--groups 'patient' is not a column",
              "read from --labels FILE")
    assert "Traceback" not in err


def test_an_anndata_takes_its_donors_from_the_sample_sheet(tmp_path, expression_and_sheet):
    anndata = pytest.importorskip("anndata")
    import pandas as pd

    expr, sheet_path, sheet = expression_and_sheet
    frame = pd.read_csv(expr, sep="\t", index_col=0)
    anndata.AnnData(X=frame.to_numpy(), obs=pd.DataFrame(index=frame.index),
                    var=pd.DataFrame(index=frame.columns)).write_h5ad(tmp_path / "a.h5ad")
    data = mm.datasets.read_data(tmp_path / "a.h5ad", labels=sheet_path,
                                 labels_column="class", groups="obs:patient")
    assert list(data.groups) == list(sheet.loc[list(data.sample_names), "patient"])
    with pytest.raises(mm.exceptions.DataError, match=r"obs:donor is not a column of the obs "
                       r".* nor of the --labels sheet"):
        mm.datasets.read_data(tmp_path / "a.h5ad", labels=sheet_path, labels_column="class",
                              groups="obs:donor")


# ------------------------------------------------------ 3. extreme weights, equal scores
def _weighted_table(tmp_path, big: float):
    frame = small_frame(n=60, p=12)
    frame["w"] = 1.0
    frame.loc[5, "w"] = big
    path = tmp_path / "weighted.csv"
    frame.to_csv(path, index=False)
    return frame, path


@pytest.mark.parametrize("big", [1e20, 1e308])
def test_a_weight_the_arithmetic_cannot_carry_is_refused_with_the_figures(tmp_path, capsys,
                                                                           big):
    # one weight of 1e20 among ones: every weighted ANOVA F of the 65 % of resamples
    # holding it was 0 or noise, and 70 % of the models were the first columns, silently
    frame, path = _weighted_table(tmp_path, big)
    err = bad(["run", path, "-t", "y", *FAST, "--sample-weight", "w", "--out",
               tmp_path / "o"], capsys, "--sample-weight", "largest weight of", f"{big:.3g}",
              "smallest positive one of 1", "times smaller", "a weight of 0")
    limit = 1 / (60 * np.finfo(float).eps)
    assert f"{limit:.3g}" in err
    X, y = frame.drop(columns=["y", "w"]).to_numpy(), frame["y"].to_numpy()
    w = frame["w"].to_numpy()
    with pytest.raises(ValueError, match=r"'sample_weight' parameter of bootstrap .* range"):
        mm.bootstrap(X, y, selector="anova", n_bootstraps=4, sample_weight=w)
    # within the limit, the same sample at its largest weight is fitted, not refused, and
    # the informative feature is still found
    w[5] = limit / 2
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=20, n_features=3,
                        sample_weight=w, random_state=0)
    assert base.subsets[:, 0].mean() > 0.8


def _flat_when_unbalanced(X, y):
    """Scores of a selector that tells nothing apart on some resamples: F of ANOVA, or
    all zeros when the resample holds more of class 1 than of class 0."""
    from sklearn.feature_selection import f_classif

    if (y == 1).sum() > (y == 0).sum():
        return np.zeros(X.shape[1])
    return np.nan_to_num(f_classif(X, y)[0])


def test_resamples_whose_scores_are_all_equal_are_reported():
    frame = small_frame(n=30, p=8)
    X, y = frame.drop(columns="y").to_numpy(), frame["y"].to_numpy()
    with pytest.warns(RuntimeWarning, match=r"bootstrap: \d+ of the 20 base models scored "
                                            r"every feature equally"):
        base = mm.bootstrap(X, y, selector=_flat_when_unbalanced, n_bootstraps=20,
                            n_features=3, random_state=0)
    flat = [i for i in range(20) if (y[base.resample(i)] == 1).sum()
            > (y[base.resample(i)] == 0).sum()]
    assert flat and len(flat) < 20
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # said once: as the run's caution
        run = mm.run(X, y, selector=_flat_when_unbalanced, n_bootstraps=20, n_features=3,
                     operators=["mostFreq"], random_state=0)
    cautions = [w for w in run.warnings() if "scored every feature equally" in w]
    assert len(cautions) == 1 and cautions[0].startswith(f"{len(flat)} of the 20 base models")


# --------------------------------------------- 4. the medoid operators' memory at large b
def _repeated_models(seed: int, distinct: int = 9, p: int = 14):
    """Base models holding ``distinct`` subsets, each repeated 1 to 6 times, shuffled."""
    from modelmine.testing import base_models_from_subsets

    rng = np.random.default_rng(seed)
    subsets = rng.random((distinct, p)) < 0.35
    subsets[:, 0] = True
    while np.unique(subsets, axis=0).shape[0] < distinct:  # distinct, as promised
        subsets = np.unique(np.vstack([subsets, rng.random((1, p)) < 0.35]), axis=0)
    counts = rng.integers(1, 7, subsets.shape[0])
    rows = np.repeat(subsets, counts, axis=0)
    return base_models_from_subsets(rows[rng.permutation(rows.shape[0])])


@pytest.mark.parametrize("seed", range(6))
def test_medoids_of_the_distinct_models_keep_the_optimum_of_all_models(seed):
    """allMed clusters the d distinct models with their multiplicities as weights (d x d
    distances instead of b x b): its loss is the brute-force optimum over all b models,
    the existing solver's on the b x b matrix is the same, and so are the medoids."""
    import itertools

    from modelmine.patterns import jaccard_distances, kmedoids

    base = _repeated_models(seed)
    full = jaccard_distances(base)
    _, first = np.unique(np.packbits(base.subsets, axis=1), axis=0, return_index=True)
    for k in (2, 3, 4):
        optimum = min(float(full[:, list(c)].min(axis=1).sum())
                      for c in itertools.combinations(sorted(first), k))
        sigs = mm.aggregate(base, "allMed", n_signatures=k, random_state=0)
        assert sigs[0].provenance["loss"] == pytest.approx(optimum, rel=1e-12, abs=1e-12)
        assert sigs[0].provenance["n_distinct_models"] == first.size
        assert sum(s.provenance["cluster_size"] for s in sigs) == base.n_models
        old = kmedoids(full, k, random_state=0)
        assert old.loss == pytest.approx(optimum, rel=1e-12, abs=1e-12)
        # the silhouette of the b models (scikit-learn's on b x b), not of the d
        rows = sorted(int(np.flatnonzero((base.subsets == np.isin(
            np.arange(base.n_features_in), s.features)).all(axis=1))[0]) for s in sigs)
        labels = np.argmin(full[:, rows], axis=1)
        from sklearn.metrics import silhouette_score

        assert sigs[0].provenance["silhouette"] == pytest.approx(
            silhouette_score(full, labels, metric="precomputed"), abs=1e-9)
        if len({round(float(full[:, list(c)].min(axis=1).sum()), 9) for c in
                itertools.combinations(sorted(first), k)} & {round(optimum, 9)}) == 1:
            mine = sorted(tuple(np.isin(np.arange(base.n_features_in), s.features))
                          for s in sigs)
            assert sorted(map(tuple, base.subsets[old.medoids])) == mine
    most = mm.aggregate(base, "mostRep", n_features=1)
    assert most.provenance["total_distance"] == pytest.approx(full.sum(axis=1).min())


def _planted_models(n_models: int = 2400, p: int = 60, seed: int = 0):
    """Base models around 4 planted subsets of 8 features, each with 0-2 features swapped:
    about 1,300 distinct subsets in 4 clusters."""
    from modelmine.testing import base_models_from_subsets

    rng = np.random.default_rng(seed)
    centres = [rng.choice(p, 8, replace=False) for _ in range(4)]
    rows = np.zeros((n_models, p), dtype=bool)
    for i in range(n_models):
        chosen = centres[i % 4].copy()
        for _ in range(rng.integers(0, 3)):
            chosen[rng.integers(8)] = rng.integers(p)
        rows[i, chosen] = True
    return base_models_from_subsets(rows)


def test_beyond_the_exact_bound_clara_finds_the_medoids_and_says_so(monkeypatch):
    """Beyond KMEDOIDS_EXACT_MAX_MODELS distinct models (shrunk here), allMed runs CLARA:
    PAM on samples, the medoids of least loss over all models; on planted clusters the
    same medoids and loss as PAM on all of them, and the provenance states the method."""
    from modelmine.patterns import _model_clusters

    base = _planted_models()
    exact = mm.aggregate(base, "allMed", n_signatures=4, random_state=0)
    assert "kmedoids" not in exact[0].provenance
    monkeypatch.setattr(_model_clusters, "KMEDOIDS_EXACT_MAX_MODELS", 500)
    monkeypatch.setattr(_model_clusters, "CLARA_SAMPLE_SIZE", 400)
    clara = mm.aggregate(base, "allMed", n_signatures=4, random_state=0)
    prov = clara[0].provenance
    assert prov["kmedoids"].startswith("CLARA: PAM on 5 samples of 400 of the ")
    assert prov["n_distinct_models"] > 500
    assert prov["loss"] == pytest.approx(exact[0].provenance["loss"], rel=1e-12)
    assert [s.features.tolist() for s in clara] == [s.features.tolist() for s in exact]
    assert [s.provenance["cluster_size"] for s in clara] == [600] * 4
    assert abs(prov["silhouette"] - exact[0].provenance["silhouette"]) < 0.05  # a sample's


def test_operator_memory_is_estimated_before_the_first_fit(tmp_path, capsys, monkeypatch):
    """A run whose medoid operator would not fit in the memory available is refused at
    once (before any fit, nothing written), with the figures and the b that fits."""
    from modelmine.base_models import _checks
    from modelmine.selectors import _builtin

    frame = small_frame(n=40, p=20)
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)

    def no_fit(*args, **kwargs):
        raise AssertionError("a fit started")

    monkeypatch.setattr(_builtin.AnovaSelector, "select", no_fit)
    monkeypatch.setattr(_checks, "available_memory", lambda: 40 * 2**20)  # 40 MiB
    out = tmp_path / "run"
    err = bad(["run", path, "-t", "y", "-s", "anova", "-b", "60000", "-o", "allMed", "--out",
               out], capsys, "'n_bootstraps' parameter (-b/--n-bootstraps)",
              "the operator 'allMed' on 60,000 base models of 20 features (up to 60,000 "
              "distinct)", "40 MiB are available", "Leave 'allMed' out")
    most = int(err.split("at most about ")[1].split(" ")[0])
    assert 2 <= most < 60000
    assert not out.exists() and not (tmp_path / ".run.partial").exists()
    # the b it names fits, and one more does not
    spec = mm.RunSpec(selector="anova", operators=("allMed",), n_bootstraps=most,
                      n_features=7, func="run")
    nbytes = _checks.operators_nbytes(spec, most, 20)["allMed"][0]
    assert nbytes + _checks.estimate_memory(most, 20, 40) <= 40 * 2**20
    spec = spec.replace(func="run", n_bootstraps=most + 1)
    nbytes = _checks.operators_nbytes(spec, most + 1, 20)["allMed"][0]
    assert nbytes + _checks.estimate_memory(most + 1, 20, 40) > 40 * 2**20


def test_the_medoid_operators_estimates_bound_their_traced_peak(monkeypatch):
    """Operator.nbytes (what the run's door compares with the memory available) bounds the
    peak tracemalloc sees while the operator runs, exact and under CLARA, and is not
    wildly above it."""
    import tracemalloc

    from modelmine.operators import get_operator
    from modelmine.patterns import _model_clusters

    base = _planted_models(n_models=700)
    d = int(np.unique(np.packbits(base.subsets, axis=1), axis=0).shape[0])

    def peak(name, **kw):
        tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            mm.aggregate(base, name, random_state=0, **kw)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    for name, kw in (("allMed", {"n_signatures": 4}), ("mostRep", {"n_features": 8})):
        estimate = get_operator(name).nbytes(base.n_models, d, base.n_features_in, 4, {})
        traced = peak(name, **kw)
        assert traced <= estimate <= 6 * traced + 2**20, (name, traced, estimate)
    monkeypatch.setattr(_model_clusters, "KMEDOIDS_EXACT_MAX_MODELS", 300)
    monkeypatch.setattr(_model_clusters, "CLARA_SAMPLE_SIZE", 300)
    estimate = get_operator("allMed").nbytes(base.n_models, d, base.n_features_in, 4, {})
    assert peak("allMed", n_signatures=4) <= estimate


# --------------------------------------------------- 5. containers modelmine does not read
class _EndlessSequence:
    """What numpy iterates as a sequence: a billion items, each one more of these (a
    MuData behaved so: np.asarray(mdata) ran for minutes past 3 GiB)."""

    def __len__(self):
        return 10**9

    def __getitem__(self, i):
        return _EndlessSequence()


class _BrokenArray:
    def __array__(self, *args, **kwargs):
        raise RuntimeError("no array here")


def _foreign_objects():
    from hypothesis import strategies as st

    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(),
                        st.binary(), st.complex_numbers())
    nested = st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=3), inner, max_size=3),
        st.frozensets(st.integers(), max_size=3)), max_leaves=12)
    arrays = st.builds(
        lambda shape, kind: np.zeros(shape, dtype=kind),
        st.lists(st.integers(0, 4), min_size=0, max_size=3).map(tuple),
        st.sampled_from([np.float64, np.int8, object, bool, "U3", np.complex64]))
    foreign = st.sampled_from([
        _EndlessSequence(), _BrokenArray(), range(10**9), iter(range(3)), memoryview(b"ab"),
        bytearray(b"abc"), {1, 2}, print, np, object(), type, Ellipsis, NotImplemented])
    return st.one_of(foreign, arrays, nested)  # the foreign first: hypothesis starts there


def test_any_python_object_is_refused_at_once_or_read():
    """mm.run and mm.bootstrap given arbitrary Python objects as X or y: a one-line
    refusal naming the parameter, within seconds and a few MB (never numpy iterating a
    foreign sequence for minutes), or, for a real small table, a run."""
    import tracemalloc

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    frame = small_frame(n=20, p=4)
    X, y = frame.drop(columns="y").to_numpy(), frame["y"].to_numpy()
    objects = _foreign_objects()
    pairs = st.one_of(st.tuples(objects, st.just(y)), st.tuples(st.just(X), objects),
                      st.tuples(objects, objects))

    @settings(max_examples=30, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(pair=pairs, door=st.sampled_from(["run", "bootstrap"]))
    def check(pair, door):
        data, labels = pair
        call = (mm.run if door == "run" else mm.bootstrap)
        extra = {"operators": ["mostFreq"]} if door == "run" else {}
        tracemalloc.start()
        try:
            with no_hang(10), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    call(data, labels, selector="anova", n_bootstraps=2, n_features=2,
                         **extra)
                except (ValueError, TypeError) as exc:  # DataError is a ValueError
                    text = str(exc)
                    assert "\n" not in text.strip(), text
                    assert "'X' parameter" in text or "'y' parameter" in text, text
            assert tracemalloc.get_traced_memory()[1] < 64 * 2**20
        finally:
            tracemalloc.stop()

    check()


def test_an_endless_sequence_is_refused_naming_what_is_read():
    """What numpy iterates as a sequence (a MuData before modelmine read them: minutes,
    past 3 GiB) is refused at once, the message naming what modelmine reads."""
    for call in (mm.run, mm.bootstrap):
        with no_hang(10), pytest.raises(
                TypeError, match=r"'X' parameter of \w+ must be a numpy array .* an AnnData, "
                                 r"or multi-omic data .* Got a [\w.]*_EndlessSequence instead"):
            call(_EndlessSequence(), np.arange(20) % 2, selector="anova", n_bootstraps=2)


# ------------------------------------------------------------------ 6. the low items
def test_markers_gmt_keeps_each_set_on_one_line_whatever_the_class_names(tmp_path):
    """Item 6: a class name's tab or line break went into markers.gmt's description field:
    a bogus gene, or a bogus set (panels.gmt was fixed in round four)."""
    frame = small_frame(n=36, p=8)
    names = np.array(["a\tb", "c\nd", "e\u2028f"])
    y = names[np.arange(36) % 3]
    X = frame.drop(columns="y").to_numpy()
    X[:, 1] += 2.0 * (np.arange(36) % 3 == 1)
    run = mm.run(X, y, selector="anova", operators=["mostFreq"], n_bootstraps=8,
                 n_features=3, random_state=0)
    run.save(tmp_path / "run", report=False)
    text = (tmp_path / "run" / "markers.gmt").read_text(encoding="utf-8")
    markers = run.markers()
    sets = markers.groupby(["signature", "class", "direction"]).ngroups
    lines = text.split("\n")[:-1]
    assert len(lines) == sets, text
    for line in lines:
        fields = line.split("\t")
        assert len(fields) >= 3 and all(f.isprintable() for f in fields), repr(line)
        name, genes = fields[0], fields[2:]
        assert set(genes) <= set(run.base_models.feature_names.tolist()), repr(line)
        assert " " not in name


@pytest.fixture
def scaled_h5ad(tmp_path):
    """scanpy's layout: .raw log-normalised (12 genes), .X those values scaled (z-scores
    of the 8 'highly variable' genes), a layer of counts."""
    anndata = pytest.importorskip("anndata")
    import pandas as pd

    rng = np.random.default_rng(3)
    counts = rng.poisson(5, size=(30, 12)).astype(float)
    counts[::2, 0] += 10  # a marker of the first class
    lognorm = np.log1p(counts / counts.sum(axis=1, keepdims=True) * 1e4)
    obs = pd.DataFrame({"label": np.where(np.arange(30) % 2 == 0, "a", "b")},
                       index=[f"c{i}" for i in range(30)])
    genes = [f"g{j}" for j in range(12)]
    full = anndata.AnnData(lognorm, obs=obs, var=pd.DataFrame(index=genes))
    adata = full[:, :8].copy()
    adata.raw = full
    scaled = adata.X - adata.X.mean(axis=0)
    adata.X = scaled / scaled.std(axis=0)
    adata.layers["counts"] = counts[:, :8]
    path = tmp_path / "cells.h5ad"
    adata.write_h5ad(path)
    return path


def test_run_reads_raw_with_use_raw_and_warns_on_a_scaled_matrix(tmp_path, capsys,
                                                                   scaled_h5ad,
                                                                   report_page_left_out):
    """Item 8: `modelmine run` on a scanpy file used a scaled .X silently and had no
    --use-raw (`markers` had one and refused scaled data)."""
    # the input options and their warnings are run's (shared by every command reading
    # data); lattice reads as run does and writes no report
    assert main(["lattice", str(scaled_h5ad), "-t", "obs:label", "-s", "anova", "-b", "6",
                 "-m", "3", "-q", "--out", str(tmp_path / "scaled.graphml")]) == 0
    err = capsys.readouterr().err
    warning = [line for line in err.splitlines() if "scaled (centred) values" in line]
    assert len(warning) == 1, err
    assert "50% of their absolute mass is negative" in warning[0]
    assert "it holds 8 of the 12 genes of .raw" in warning[0]
    assert "--use-raw (.raw holds unscaled values" in warning[0]
    assert "--layer NAME (unscaled layers: 'counts')" in warning[0]
    out = tmp_path / "raw"
    assert main(["run", str(scaled_h5ad), "-t", "obs:label", "--use-raw", *FAST, "-o",
                 "mostFreq", "--out", str(out)]) == 0
    assert "scaled" not in capsys.readouterr().err
    record = json.loads((out / "run.json").read_text())
    assert record["data"]["read_options"]["use_raw"] is True
    assert mm.BaseModels.load(out).n_features_in == 12  # .raw's genes
    with pytest.warns(mm.datasets.ScaledValuesWarning, match="use_raw=True"):
        mm.datasets.read_data(scaled_h5ad, "obs:label")
    # values with nothing unscaled beside them are the data as they are (log ratios,
    # M-values): no warning
    import anndata

    ratios = anndata.read_h5ad(scaled_h5ad)
    del ratios.raw
    del ratios.layers["counts"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", mm.datasets.ScaledValuesWarning)
        mm.datasets.from_anndata(ratios, "obs:label")
    bad(["run", tmp_path / "x.csv", "-t", "y", "--use-raw", "--out", tmp_path / "o"],
        capsys, "No such file")
    small_frame().to_csv(tmp_path / "x.csv", index=False)
    bad(["run", tmp_path / "x.csv", "-t", "y", "--use-raw", "--out", tmp_path / "o"],
        capsys, "--use-raw does not apply")


def test_item_10_messages_say_what_applies(tmp_path, capsys):
    """Item 10: the class-of-one warning quoted 150 resamples under -b 20; weight errors
    said "class code 0"; a decimal-comma .txt was answered "pass --groups g1"; `sex` got
    "pass --groups sex"; a repeated-ID first column did not point to --groups."""
    import pandas as pd

    # a class of 3 among 60: the share of resamples, not "of 150"
    y = np.array(["a"] * 30 + ["b"] * 27 + ["c"] * 3)
    with pytest.warns(mm.datasets.ManyClassesWarning) as caught:
        mm.datasets.check_target(y, where="(test)")
    text = str(caught[0].message)
    assert "150" not in text and "5% of the resamples, whatever their number" in text
    # weights: the class by its name
    frame = small_frame(n=30)
    X = frame.drop(columns="y").to_numpy()
    labels = np.where(frame["y"] == 1, "tumour", "normal")
    with pytest.raises(ValueError, match=r"all positive weights in class 'tumour'"):
        mm.bootstrap(X, labels, selector="anova", n_bootstraps=3, weighted_resampling=True,
                     sample_weight=(labels == "tumour").astype(float))
    # a decimal-comma .txt (Excel in a comma locale) is read as numbers, with a note
    table = frame.copy()
    txt = tmp_path / "expr.txt"
    table.to_csv(txt, sep=";", index=False, decimal=",")
    data = mm.datasets.read_data(txt, "y")
    np.testing.assert_allclose(data.X, X, rtol=1e-12)
    assert any("decimal commas" in note for note in data.notes)
    table.to_csv(tmp_path / "comma.csv", index=False, decimal=",")  # sep and decimal ","
    bad(["run", tmp_path / "comma.csv", "-t", "y", "--out", tmp_path / "o"], capsys,
        "writes numbers with decimal commas", "save it with decimal points")
    (tmp_path / "thousands.tsv").write_text("g1\tg2\ty\n1,234\t5\ta\n2,345\t6\tb\n")
    bad(["run", tmp_path / "thousands.tsv", "-t", "y", "--out", tmp_path / "o"], capsys,
        "could be decimal commas or thousands separators", "'g1'", "'1,234'")
    # sex: an attribute of a few levels, not a unit to resample
    table["sex"] = np.where(np.arange(30) % 3 == 0, "F", "M")
    table.to_csv(tmp_path / "sex.csv", index=False)
    err = bad(["run", tmp_path / "sex.csv", "-t", "y", "--out", tmp_path / "o"], capsys,
              "--covariate sex", "--drop sex")
    assert "--groups sex" not in err
    table = table.drop(columns="sex")
    table["patient"] = [f"P{i // 3}" for i in range(30)]
    table.to_csv(tmp_path / "patient.csv", index=False)
    bad(["run", tmp_path / "patient.csv", "-t", "y", "--out", tmp_path / "o"], capsys,
        "--groups patient")
    # a first column of IDs that repeat: point to --groups too
    ids = pd.concat([pd.Series([f"P{i // 2}" for i in range(30)], name="sample"),
                     frame], axis=1)
    ids.to_csv(tmp_path / "ids.csv", index=False)
    bad(["run", tmp_path / "ids.csv", "-t", "y", "--out", tmp_path / "o"], capsys,
        "looks like sample IDs", "--index-col", "--groups sample")


def test_an_edited_expression_table_is_refused_by_its_checksum(tmp_path, capsys):
    """Item 12: expression.csv.gz was not checksummed: an edited file loaded and was
    drawn in the report."""
    import gzip

    frame = small_frame(n=24, p=6)
    run = mm.run(frame.drop(columns="y").to_numpy(), frame["y"].to_numpy(), selector="anova",
                 operators=["mostFreq"], n_bootstraps=6, n_features=2, random_state=0)
    out = tmp_path / "run"
    run.save(out, report=False)
    assert mm.MiningRun.load(out).expression is not None  # the checksum holds
    path = out / "expression.csv.gz"
    text = gzip.decompress(path.read_bytes()).decode()
    lines = text.splitlines()
    cells = lines[1].split(",")
    cells[-1] = str(float(cells[-1]) + 1.0)  # one value edited, still a valid table
    lines[1] = ",".join(cells)
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    with pytest.raises(mm.exceptions.DataError, match=r"expression.csv.gz' was changed or is "
                                                      r"corrupt \(its checksum does not match "
                                                      r"run.json\): restore it, or delete it"):
        mm.MiningRun.load(out)
    bad(["report", out], capsys, "expression.csv.gz", "checksum")
    path.unlink()  # as the message says: the run loads without it
    assert mm.MiningRun.load(out).expression is None


def test_an_empty_column_header_is_not_unnamed_in_the_outputs(tmp_path, capsys):
    """Item 13: an empty column header became pandas' 'Unnamed: N' in every output, with
    no note. R's row names (an empty first header) are read as IDs or left out, with a
    note; an empty header elsewhere is refused, naming its position."""
    frame = small_frame(n=20, p=4)
    ids = [f"S{i}" for i in range(20)]
    frame.index = ids
    frame.to_csv(tmp_path / "r_names.csv")  # pandas writes R's layout: "" then the columns
    data = mm.datasets.read_data(tmp_path / "r_names.csv", "y")
    assert list(data.sample_names) == ids
    assert not any("Unnamed" in name for name in data.feature_names)
    assert any("its header is empty" in note for note in data.notes)
    frame.reset_index(drop=True).rename(index=lambda i: i + 1).to_csv(tmp_path / "rows.csv")
    data = mm.datasets.read_data(tmp_path / "rows.csv", "y")
    assert list(data.feature_names) == ["g0", "g1", "g2", "g3"]
    assert any("numbers the rows" in note for note in data.notes)
    text = (tmp_path / "r_names.csv").read_text().splitlines()
    text[0] = text[0].replace(",g2,", ",,")  # and a feature without a name
    (tmp_path / "holes.csv").write_text("\n".join(text) + "\n")
    bad(["run", tmp_path / "holes.csv", "-t", "y", "--out", tmp_path / "o"], capsys,
        "2 columns of", "empty header (columns 1, 4)")
    frame.reset_index(drop=True).rename(columns={"g2": ""}).to_csv(tmp_path / "hole.csv",
                                                                   index=False)
    bad(["run", tmp_path / "hole.csv", "-t", "y", "--out", tmp_path / "o"], capsys,
        "Column 3 of", "(after 'g1') has an empty header", "--drop ''")
    data = mm.datasets.read_data(tmp_path / "hole.csv", "y", drop=[""])
    assert list(data.feature_names) == ["g0", "g1", "g3"]


def test_an_out_that_is_a_symbolic_link_is_refused_naming_its_target(tmp_path, capsys,
                                                                       data_csv,
                                                                       finished_run):
    """Item 14: --out pointing to a symlinked empty directory replaced the link with a new
    directory, silently (the linked directory stayed empty)."""
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    bad(["run", data_csv, "-t", "y", *FAST, "--out", link], capsys,
        "is a symbolic link to", str(real.resolve()), f"give --out {str(real.resolve())!r}")
    assert link.is_symlink() and list(real.iterdir()) == []
    report = tmp_path / "share.html"
    report.symlink_to(tmp_path / "elsewhere.html")
    (tmp_path / "elsewhere.html").write_text("mine")
    bad(["report", finished_run, "--out", report], capsys, "symbolic link")
    assert (tmp_path / "elsewhere.html").read_text() == "mine"


# ------------------------------------------- 7. the command line's file inputs, by hypothesis
FILE_EXAMPLES = int(os.environ.get("MODELMINE_FUZZ_EXAMPLES", "25"))


def _file_inputs():
    """A table as a lab might keep it: random headers, sample IDs (or none), a label
    column or a sample sheet beside it, written with a separator, a decimal mark, an
    encoding and an extension drawn at random (some of them mismatched, as users do)."""
    import pandas as pd
    from hypothesis import strategies as st

    letters = st.characters(min_codepoint=0x41, max_codepoint=0x5A)
    name_char = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters=",;\t\"'")
    names = st.tuples(letters, st.text(name_char, max_size=6)).map("".join)
    # a label written NA, NULL or INF means a missing or infinite value (R and pandas)
    labels = names.filter(lambda v: pd.isna(pd.to_numeric(v, errors="coerce"))
                          and v not in pd._libs.parsers.STR_NA_VALUES)
    return st.fixed_dictionaries({
        "n": st.integers(6, 10), "p": st.integers(2, 4),
        "features": st.lists(names, min_size=4, max_size=4, unique=True),
        "classes": st.lists(labels, min_size=2, max_size=2, unique=True),
        "ids": st.sampled_from(["text", "none"]),
        "labels": st.sampled_from(["column", "sheet"]),
        # hypothesis starts from the first choices: those a reader most often gets wrong
        "sep": st.sampled_from(["\t", ";", ","]),
        "decimal": st.sampled_from([",", "."]),
        "encoding": st.sampled_from(["utf-16", "utf-8-sig", "utf-8", "latin-1"]),
        "suffix": st.sampled_from([".tsv", ".txt", ".csv"]),
        "sheet_sep": st.sampled_from([",", "\t"]),
        "sheet_encoding": st.sampled_from(["utf-16", "utf-8", "utf-8-sig"]),
        "age": st.booleans(),  # a covariate of the sheet, in its decimal mark
        "seed": st.integers(0, 2**16)})


def _write_inputs(case: dict, directory: Path):
    """Write the case's files; return (data path, sheet path or None, what the user meant:
    the values, feature names, labels, sample IDs and the sheet's ages)."""
    import pandas as pd

    rng = np.random.default_rng(case["seed"])
    n, p = case["n"], case["p"]
    features = case["features"][:p]
    X = np.round(rng.normal(scale=100, size=(n, p)), 4)
    y = np.array(case["classes"])[np.arange(n) % 2]
    ids = [f"S{i}" for i in range(n)]
    frame = pd.DataFrame(X, columns=features)
    if case["ids"] == "text" or case["labels"] == "sheet":
        frame.insert(0, "sample", ids)
    sheet = None
    age = np.round(rng.uniform(20, 80, size=n), 1)
    if case["labels"] == "column":
        frame["class"] = y
    else:
        sheet = directory / ("samples.tsv" if case["sheet_sep"] == "\t" else "samples.csv")
        order = rng.permutation(n)
        pd.DataFrame({"sample": np.array(ids)[order], "class": y[order],
                      "age": age[order]}).to_csv(
            sheet, sep=case["sheet_sep"], decimal=case["decimal"], index=False,
            encoding=case["sheet_encoding"])
    path = directory / f"data{case['suffix']}"
    frame.to_csv(path, sep=case["sep"], decimal=case["decimal"], index=False,
                 encoding=case["encoding"])
    return path, sheet, (X, features, y, ids, age)


def test_the_command_line_reads_a_lab_file_as_meant_or_refuses_it_in_one_line(tmp_path):
    """A property-based round (hypothesis) over the file inputs of `modelmine run`: random
    headers, sample sheets, separators, decimal marks and encodings. Each file is read as
    the user meant (the values, the feature names, the labels, the sample IDs) or refused
    with one line naming the file or the option; never another exception, never a hang.
    A layout a lab means (the extension's separator, a decimal comma beside another
    separator, UTF-16 with its byte order mark) must be read, not refused.
    ``MODELMINE_FUZZ_EXAMPLES`` sets the number of examples (25 here; a longer sweep:
    ``MODELMINE_FUZZ_EXAMPLES=2000``, docs/reliability.md)."""
    import itertools
    import shutil as sh
    from datetime import timedelta

    from hypothesis import HealthCheck, given, settings

    from modelmine.datasets._biodata import cli_door

    counter = itertools.count()

    @settings(max_examples=FILE_EXAMPLES, deadline=timedelta(seconds=5), derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(case=_file_inputs())
    def check(case):
        directory = tmp_path / f"case{next(counter)}"
        directory.mkdir()
        try:
            path, sheet, (X, features, y, ids, age) = _write_inputs(case, directory)
        except (UnicodeEncodeError, ValueError):
            sh.rmtree(directory)  # the case cannot be written in that encoding
            return
        kwargs: dict = ({"labels": str(sheet), "labels_column": "class"} if sheet else {})
        if sheet and case["age"]:
            kwargs["covariates"] = ["age"]
        # A layout a lab means and modelmine reads: the extension's separator (any, for a
        # sniffed .txt), a decimal mark other than the separator, UTF-8 or UTF-16 with its
        # byte order mark (Latin-1 only when it is plain ASCII, hence also UTF-8); a
        # sheet's ages with decimal commas only beside tabs.
        text_bytes = path.read_bytes()
        must_read = ((case["suffix"] == ".txt"
                      or case["sep"] == {".csv": ",", ".tsv": "\t"}[case["suffix"]])
                     and not (case["sep"] == "," and case["decimal"] == ",")
                     and (case["encoding"] != "latin-1" or text_bytes.isascii())
                     and not ("covariates" in kwargs and case["sheet_sep"] == ","
                              and case["decimal"] == ","))
        try:
            with no_hang(10), warnings.catch_warnings(), cli_door():
                warnings.simplefilter("ignore")
                data = mm.datasets.read_data(path, None if sheet else "class", **kwargs)
        except mm.exceptions.DataError as exc:
            text = str(exc)
            assert "\n" not in text.strip(), text
            assert str(path) in text or (sheet and str(sheet) in text) or "--" in text, text
            assert not must_read, (case, text)
            return
        finally:
            sh.rmtree(directory, ignore_errors=True)
        assert list(data.feature_names) == features, (case, list(data.feature_names))
        np.testing.assert_allclose(data.X, X, rtol=1e-12, atol=0)
        assert [str(v) for v in data.y] == [v.strip() for v in y], case  # as a sheet's
        if case["ids"] == "text" or sheet:
            assert list(data.sample_names) == ids, case
        if "covariates" in kwargs:
            np.testing.assert_allclose(data.covariates["age"], age, rtol=1e-12)

    check()


def test_what_the_file_round_found_is_read_as_meant_or_refused(tmp_path, capsys):
    """What the round above found, each pinned: a UTF-16 sample sheet (Excel's "Unicode
    text") was refused as not UTF-8, and its ages with decimal commas were read as text;
    the same labels with a trailing space were one class in a sheet and two in a data
    column; a Latin-1 file (Excel's Windows "CSV") was "not a text CSV file"."""
    import pandas as pd

    frame = small_frame(n=12, p=3)
    ids = [f"S{i}" for i in range(12)]
    data = frame.drop(columns="y").set_axis(ids)
    data.to_csv(tmp_path / "expr.csv")
    age = np.round(np.linspace(20.5, 75.5, 12), 1)
    sheet = pd.DataFrame({"class": np.where(frame["y"] == 1, "tumour", "normal"),
                          "age": age}, index=pd.Index(ids, name="sample"))
    sheet.to_csv(tmp_path / "samples.tsv", sep="\t", decimal=",", encoding="utf-16")
    read = mm.datasets.read_data(tmp_path / "expr.csv", labels=tmp_path / "samples.tsv",
                                 labels_column="class", covariates=["age"])
    np.testing.assert_array_equal(read.covariates["age"], age)
    assert any("decimal commas of --labels" in note for note in read.notes)
    sheet.to_csv(tmp_path / "samples.csv", decimal=",")  # "45,5" quoted beside commas
    bad(["run", tmp_path / "expr.csv", "--labels", tmp_path / "samples.csv",
         "--labels-column", "class", "--covariate", "age", "--out", tmp_path / "o"], capsys,
        "--covariate 'age' of the --labels sheet", "writes numbers with commas")
    # the same labels, one with a trailing space: one class at every door
    spaced = frame.assign(y=np.where(frame["y"] == 1, "tumour", "normal"))
    spaced.loc[0, "y"] = spaced.loc[0, "y"] + " "
    spaced.to_csv(tmp_path / "spaced.csv", index=False)
    read = mm.datasets.read_data(tmp_path / "spaced.csv", "y")
    assert sorted(set(read.y)) == ["normal", "tumour"]
    assert any("without the spaces around them" in note for note in read.notes)
    # Latin-1: refused naming the byte and how to save it
    (tmp_path / "latin.csv").write_bytes("gène,g1,y\n1,2,a\n3,4,b\n".encode("latin-1"))
    bad(["run", tmp_path / "latin.csv", "-t", "y", "--out", tmp_path / "o"], capsys,
        "is not UTF-8 text (byte 0xe8)", "CSV UTF-8")


def test_rows_as_lists_run_and_ragged_rows_or_a_bad_mapping_are_refused():
    """What the object round found once it drew foreign objects first: mm.run on a list
    of rows (which the container check accepts) failed with "'list' object has no
    attribute 'shape'"; ragged rows gave numpy's "inhomogeneous shape" error; a mapping
    with no modality, an empty name or a number for a table was refused without naming
    the parameter."""
    frame = small_frame(n=20, p=4)
    X, y = frame.drop(columns="y").to_numpy(), frame["y"].to_numpy()
    listed = mm.run(X.tolist(), y, selector="anova", operators=["mostFreq"],
                    n_bootstraps=3, n_features=2, random_state=0)
    array = mm.run(X, y, selector="anova", operators=["mostFreq"], n_bootstraps=3,
                   n_features=2, random_state=0)
    assert listed.base_models == array.base_models
    for call in (mm.run, mm.bootstrap):
        with pytest.raises(ValueError, match=r"'X' parameter of \w+ must be rows of one "
                                             r"length .* rows hold 1 or 2 values"):
            call([[1.0, 2.0], [3.0]] * 10, y, selector="anova", n_bootstraps=2)
        for mapping, given in (({}, "an empty mapping"), ({"": frame}, "the name ''"),
                               ({"rna": 1}, "modality 'rna' as an int")):
            with pytest.raises((TypeError, ValueError),
                               match=rf"'X' parameter of \w+ must be a mapping of modality "
                                     rf"names to tables .* Got {given} instead"):
                call(mapping, y, selector="anova", n_bootstraps=2)
