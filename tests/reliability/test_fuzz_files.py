"""Fuzzing every reader and loader with hypothesis (bounded: small files, few examples).

The property, for each: a damaged file (random byte flips, truncation) or a well-formed
file with inconsistent values gives either a correct load or a ModelmineError whose
message names the file; never another exception, never a hang (each example runs under an
alarm). Each property runs a seeded slice of SLICE examples in the fast tier and its full
sweep of EXAMPLES in a slow-marked twin (``examples="sweep"``); ``MODELMINE_FUZZ_EXAMPLES``
raises the sweep's number of examples for a longer hunt.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_helpers import no_hang, rewrite_npz, small_frame

import modelmine as mm
from modelmine.exceptions import ModelmineError
from modelmine.pipeline import _store
from modelmine.pipeline import resume as resume_bootstrap
from modelmine.testing import make_base_models

EXAMPLES = int(os.environ.get("MODELMINE_FUZZ_EXAMPLES", "30"))
#: The examples of each property in the fast tier (``make test``).
SLICE = min(10, EXAMPLES)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: Each property twice: the slice in the fast tier, the sweep slow-marked.
SWEEP = pytest.mark.parametrize(
    "examples", [SLICE, pytest.param(EXAMPLES, marks=pytest.mark.slow)], ids=["slice", "sweep"])


def fuzz(examples: int):
    """The decorated ``check(draw)`` as a hypothesis test of ``examples`` derandomized
    examples, each drawing what it needs from ``draw`` (``st.data()``)."""
    def decorate(check):
        return settings(FUZZ, max_examples=examples)(given(draw=st.data())(check))

    return decorate


SECONDS = 20  # far above any single load here; a hang fails instead of blocking the suite


def damage(data: bytes, draw) -> bytes:
    """Random byte flips, then perhaps a truncation."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(out) - 1))
        out[at] = draw(st.integers(0, 255))
    if draw(st.booleans()):
        out = out[: draw(st.integers(0, len(out)))]
    return bytes(out)


def refused_or_loaded(load, path: Path, *names: str):
    """``load()``; a ModelmineError must name ``path`` (or one of ``names``)."""
    try:
        with no_hang(SECONDS):
            return load()
    except ModelmineError as exc:
        shown = (str(path), path.name, *names)
        assert any(s in str(exc) for s in shown), f"{type(exc).__name__}: {exc}"
        return None


# ----------------------------------------------------------------------- data files
@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    root = tmp_path_factory.mktemp("tables")
    frame = small_frame(n=20, p=5)
    files = {}
    for name in ("d.csv", "d.tsv", "d.csv.gz", "d.parquet"):
        path = root / name
        if name.endswith(".parquet"):
            frame.to_parquet(path, index=False)
        else:
            frame.to_csv(path, index=False, sep="\t" if ".tsv" in name else ",")
        files[name] = path.read_bytes()
    from scipy.io import savemat

    mat = root / "d.mat"
    savemat(
        mat,
        {"X": frame.drop(columns="y").to_numpy(), "Y": frame["y"].to_numpy().reshape(-1, 1)},
        do_compression=True,
    )
    files["d.mat"] = mat.read_bytes()
    return files


@pytest.mark.parametrize("name", ["d.csv", "d.tsv", "d.csv.gz", "d.parquet", "d.mat"])
@SWEEP
def test_read_data_on_damaged_files(name, tables, tmp_path, examples):
    @fuzz(examples)
    def check(draw):
        path = tmp_path / name
        path.write_bytes(damage(tables[name], draw.draw))
        target = None if name.endswith(".mat") else "y"
        loaded = refused_or_loaded(lambda: mm.datasets.read_data(path, target), path)
        if loaded is not None:
            X = loaded.X.toarray() if hasattr(loaded.X, "toarray") else loaded.X
            assert X.shape[0] == len(loaded.y) and np.isfinite(X).all()
            assert len(loaded.feature_names) == X.shape[1]

    check()


@pytest.mark.parametrize("name", ["labels.tsv", "labels.tsv.gz"])
@pytest.mark.filterwarnings("ignore::modelmine.datasets.ManyClassesWarning")
@SWEEP
def test_read_data_with_damaged_label_files(name, tables, tmp_path, examples):
    """--labels FILE (sample IDs, then labels), joined to the data by sample ID."""
    @fuzz(examples)
    def check(draw):
        import gzip

        frame = small_frame(n=20, p=5)
        data = tmp_path / "d.csv"
        if not data.exists():
            expr = frame.drop(columns="y")
            expr.insert(0, "sample", [f"S{i}" for i in range(len(frame))])
            expr.to_csv(data, index=False)
        text = "id\tgroup\n" + "".join(f"S{i}\t{'ab'[v]}\n" for i, v in enumerate(frame["y"]))
        raw = gzip.compress(text.encode()) if name.endswith(".gz") else text.encode()
        path = tmp_path / name
        path.write_bytes(damage(raw, draw.draw))
        loaded = refused_or_loaded(lambda: mm.datasets.read_data(data, labels=path), path,
                                   str(data))
        if loaded is not None:
            assert loaded.X.shape[0] == len(loaded.y) == len(loaded.sample_names)

    check()


# ----------------------------------------------------------------------- BaseModels files
@pytest.fixture(scope="module", params=["plain", "error-control"])
def base_file(request, tmp_path_factory):
    if request.param == "plain":
        base = make_base_models(n_models=5, n_features_in=12, n_features=3)
    else:  # complementary pairs and artificial features (issue 12): more record and arrays
        base = make_base_models(n_models=6, n_features_in=12, n_features=3,
                                resampling="complementary-pairs", artificial=True)
    path = base.save(tmp_path_factory.mktemp("base") / "b.npz")
    return base, path.read_bytes()


@SWEEP
def test_base_models_load_on_damaged_files(base_file, tmp_path, examples):
    @fuzz(examples)
    def check(draw):
        base, data = base_file
        path = tmp_path / "b.npz"
        path.write_bytes(damage(data, draw.draw))
        loaded = refused_or_loaded(lambda: mm.BaseModels.load(path), path)
        if loaded is not None:  # the checksum leaves one possibility: nothing that counts changed
            assert loaded == base

    check()


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
_FIELDS = [
    "format_version",
    "selector",
    "n_features",
    "resampling",
    "random_state",
    "classes",
    "n_samples",
    "data_sha256",
    "extra",
    "artificial",
]
_ARRAYS = [
    "subsets",
    "subsets_shape",
    "ranks",
    "scores",
    "sample_indices",
    "feature_names",
    "full_ranks",
    "full_subset",
    "full_scores",
    "artificial_subsets",
    "artificial_shape",
]


@SWEEP
def test_base_models_load_on_schema_valid_but_inconsistent_files(base_file, tmp_path, examples):
    """Valid archives with a valid checksum, whose record or arrays were changed."""
    @fuzz(examples)
    def check(draw):
        _, data = base_file
        path = tmp_path / "b.npz"
        path.write_bytes(data)
        field = draw.draw(st.sampled_from(_FIELDS + _ARRAYS))

        def edit(arrays, meta):
            if field in _FIELDS:
                meta[field] = draw.draw(_JSON)
            elif draw.draw(st.booleans()) or field not in arrays:
                shape = draw.draw(st.lists(st.integers(0, 6), min_size=0, max_size=3))
                dtype = draw.draw(st.sampled_from(["<i4", "<i8", "<f4", "|b1", "|u1", "<U3"]))
                arrays[field] = np.zeros(shape, dtype=dtype)
            else:
                a = arrays[field].copy()
                if a.size:
                    flat = a.reshape(-1)
                    at = draw.draw(st.integers(0, flat.size - 1))
                    if a.dtype.kind in "iu":
                        flat[at] = draw.draw(
                            st.integers(np.iinfo(a.dtype).min // 2, np.iinfo(a.dtype).max // 2)
                        )
                    elif a.dtype.kind == "f":
                        flat[at] = draw.draw(st.floats(width=32))
                    elif a.dtype.kind == "b":
                        flat[at] = not flat[at]
                    else:
                        flat[at] = draw.draw(st.text(max_size=3))
                arrays[field] = a

        rewrite_npz(path, edit)
        loaded = refused_or_loaded(lambda: mm.BaseModels.load(path), path)
        if loaded is not None:  # a correct load: the invariants hold
            b, p = loaded.shape
            assert np.array_equal(np.sort(loaded.ranks, axis=1),
                                  np.tile(np.arange(1, p + 1), (b, 1)))
            assert loaded.sample_indices.max() < loaded.n_samples
            assert loaded.scores is None or np.isfinite(loaded.scores).all()

    check()


# A heterogeneous ensemble (bootstrap(selector=[...]), Salman 2022): per-model selectors,
# NaN score rows for a ranking-only selector, own subsets for a subset selector.
@pytest.fixture(scope="module")
def hetero_file(tmp_path_factory):
    frame = small_frame(n=30, p=12)
    base = mm.bootstrap(frame.drop(columns="y").to_numpy(), frame["y"].to_numpy(),
                        ["anova", "svm-rfe", "l1-logistic"], n_bootstraps=3, n_features=3,
                        random_state=0)
    path = base.save(tmp_path_factory.mktemp("hetero") / "h.npz")
    return base, path.read_bytes()


@SWEEP
def test_heterogeneous_base_models_load_on_damaged_or_inconsistent_files(
        hetero_file, tmp_path, examples):
    @fuzz(examples)
    def check(draw):
        base, data = hetero_file
        path = tmp_path / "h.npz"
        if draw.draw(st.booleans()):
            path.write_bytes(damage(data, draw.draw))
        else:
            path.write_bytes(data)
            where = draw.draw(st.sampled_from(["selector", "extra"]))
            key = draw.draw(st.sampled_from(
                ["params", "kind"] if where == "selector"
                else ["model_selectors", "selectors_without_scores"]))

            def edit(arrays, meta):
                if draw.draw(st.booleans()):
                    meta[where][key] = draw.draw(_JSON)
                else:  # a plausible value: selector names, shuffled or cut
                    names = list(base.model_selectors)
                    meta[where][key] = draw.draw(st.lists(st.sampled_from(
                        [*sorted(set(names)), "ig"]), max_size=len(names) + 1))

            rewrite_npz(path, edit)
        loaded = refused_or_loaded(lambda: mm.BaseModels.load(path), path)
        if loaded is not None:  # a correct load: each model's scores finite, or NaN if unscored
            without = set(loaded.extra.get("selectors_without_scores", ()))
            unscored = np.array([s in without for s in loaded.model_selectors])
            assert loaded.scores is None or np.isfinite(loaded.scores[~unscored]).all()
            assert loaded.scores is None or np.isnan(loaded.scores[unscored]).all()
            assert len(loaded.model_selectors) == loaded.n_models

    check()


# ----------------------------------------------------------------------- run directories
_RUN_FILES = [
    "run.json",
    "signatures.json",
    "diagnostics.json",
    "base_models.npz",
    "expression.csv.gz",
    "effects.csv",
]


@pytest.mark.parametrize("name", _RUN_FILES)
@SWEEP
def test_mining_run_load_on_damaged_run_directories(name, finished_run, tmp_path, examples):
    @fuzz(examples)
    def check(draw):
        run = tmp_path / "run"
        if not run.exists():
            shutil.copytree(finished_run, run)
        path = run / name
        original = (finished_run / name).read_bytes()
        path.write_bytes(damage(original, draw.draw))
        try:
            loaded = refused_or_loaded(lambda: mm.MiningRun.load(run), path)
            if loaded is not None:  # what loads can be shown
                with no_hang(SECONDS):
                    loaded.frequencies()
                    loaded.diagnostics  # noqa: B018
                    loaded._repr_html_()
                    assert loaded.base_models.n_models == 12
                    if loaded.effects_table is not None:  # what loads has every feature
                        assert set(loaded.effects().feature) == {
                            str(f) for f in loaded.base_models.feature_names}
        finally:
            path.write_bytes(original)

    check()


@pytest.mark.slow
@pytest.mark.rendered
@settings(
    max_examples=min(EXAMPLES, 8),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(draw=st.data())
def test_what_loads_from_an_edited_run_json_makes_a_report(finished_run, tmp_path, draw):
    """Fields of the right type but other values, then the report (which reads them)."""
    run = tmp_path / "run"
    if run.exists():
        shutil.rmtree(run)
    shutil.copytree(finished_run, run)
    record = json.loads((run / "run.json").read_text())
    section = draw.draw(st.sampled_from(["settings", "data"]))
    key = draw.draw(st.sampled_from(sorted(record[section])))
    record[section][key] = draw.draw(_JSON)
    (run / "run.json").write_text(json.dumps(record))
    loaded = refused_or_loaded(lambda: mm.MiningRun.load(run), run / "run.json")
    if loaded is not None:
        with no_hang(60):
            loaded.report(tmp_path / "r.html")
        assert (tmp_path / "r.html").stat().st_size > 0


# ----------------------------------------------------------------------- checkpoints
@pytest.fixture(scope="module")
def checkpointed(tmp_path_factory):
    """A bootstrap run directory stopped after two of its three chunks, and its data."""
    frame = small_frame()
    X, y = frame.drop(columns="y").to_numpy(), frame["y"].to_numpy()
    kw = dict(selector="anova", n_bootstraps=12, n_features=5, random_state=3)
    run = tmp_path_factory.mktemp("ckpt") / "run"
    truth = mm.bootstrap(X, y, run_dir=run, checkpoint_every=4, **kw)
    manifest = json.loads((run / "manifest.json").read_text())
    del manifest["chunks"]["2"]
    manifest["complete"] = False
    (run / "manifest.json").write_text(json.dumps(manifest))
    (run / "chunk-00002.npz").unlink()
    (run / "base_models.npz").unlink()
    return run, X, y, truth


@pytest.mark.parametrize("name", ["manifest.json", "chunk-00000.npz", "full_model.npz"])
@SWEEP
def test_resume_on_damaged_checkpoints(name, checkpointed, tmp_path, examples):
    @fuzz(examples)
    def check(draw):
        source, X, y, truth = checkpointed
        run = tmp_path / "run"
        if run.exists():
            shutil.rmtree(run)
        shutil.copytree(source, run)
        path = run / name
        path.write_bytes(damage(path.read_bytes(), draw.draw))
        resumed = refused_or_loaded(lambda: resume_bootstrap(run, X, y), path, "manifest", str(run))
        if resumed is not None:  # a correct load: the same models as without the damage
            assert resumed == truth

    check()


@SWEEP
def test_read_checkpoint_on_damaged_records(interrupted_run, tmp_path, examples):
    @fuzz(examples)
    def check(draw):
        partial = tmp_path / ".run.partial"
        if not partial.exists():
            shutil.copytree(interrupted_run, partial)
        path = partial / "checkpoint.json"
        original = (interrupted_run / "checkpoint.json").read_bytes()
        path.write_bytes(damage(original, draw.draw))
        try:
            record = refused_or_loaded(lambda: _store.read_checkpoint(partial), path)
            if record is not None:
                assert record["settings"]["n_bootstraps"] >= 2
        finally:
            path.write_bytes(original)

    check()

