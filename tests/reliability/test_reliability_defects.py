"""Regression tests of the fault list of issue 14 (docs/reliability.md), one section each.

Each test was written against the defect and fails without its fix.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from reliability_helpers import FAST, bad, copy_tree, lines, rewrite_npz, small_frame

import modelmine as mm
from modelmine._files import directory_lock
from modelmine.base_models import RunDirectoryError
from modelmine.base_models import resume as resume_bootstrap
from modelmine.cli import main
from modelmine.exceptions import DataError, ModelmineError, RunStateError
from modelmine.testing import make_base_models

KW = dict(selector="anova", n_bootstraps=12, n_features=5, random_state=3)


@pytest.fixture(scope="module")
def Xy():
    frame = small_frame()
    return frame.drop(columns="y").to_numpy(), frame["y"].to_numpy()


@pytest.fixture(scope="module")
def bootstrap_dir(tmp_path_factory, Xy):
    """A finished bootstrap run directory (chunks of 4: chunks 0, 1, 2)."""
    X, y = Xy
    run = tmp_path_factory.mktemp("boot") / "run"
    mm.bootstrap(X, y, run_dir=run, checkpoint_every=4, **KW)
    return run


def _manifest(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())


def _write_manifest(run: Path, manifest: dict) -> None:
    (run / "manifest.json").write_text(json.dumps(manifest))


# ----------------------------------------------------------------------- 1. failed runs
@pytest.mark.parametrize(
    "frame_edit, pattern",
    [
        (lambda f: f.assign(y=0), "at least 2 classes"),
        (lambda f: f.assign(**{c: 0.0 for c in f.columns if c != "y"}), "non-constant"),
        (lambda f: f.head(3), "at least 2 samples per class"),
    ],
)
def test_a_run_refused_before_its_first_checkpoint_leaves_nothing(
    tmp_path, capsys, data_csv, frame_edit, pattern, report_page_left_out
):
    data = tmp_path / "d.csv"
    frame_edit(small_frame()).to_csv(data, index=False)
    out = tmp_path / "run"
    bad(["run", data, "-t", "y", *FAST, "--out", out], capsys, pattern)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv"]
    # ... so the next run into the same --out is not blocked.
    assert main(["run", str(data_csv), "-t", "y", *FAST, "--out", str(out)]) == 0


def test_a_run_failing_in_its_first_fit_leaves_nothing(tmp_path, capsys, monkeypatch, data_csv):
    from modelmine.selectors import _builtin

    def broken(self, X, y, *, random_state):
        raise DataError("the selector broke on purpose")

    monkeypatch.setattr(_builtin.AnovaSelector, "select", broken)
    out = tmp_path / "run"
    bad(["run", data_csv, "-t", "y", *FAST, "--out", out], capsys, "on purpose")
    assert list(tmp_path.iterdir()) == []


def test_a_run_failing_after_a_checkpoint_says_so_and_resumes(
    tmp_path, capsys, monkeypatch, data_csv, finished_run
):
    """The resumed run writes its whole report (built, not drawn) and equals a run that
    was never interrupted (finished_run: the same data, selector and seed)."""
    import modelmine.pipeline._run as run_module

    def boom(*args, **kwargs):
        raise DataError("operators failed on purpose")

    monkeypatch.setattr(run_module, "apply_operators", boom)
    out = tmp_path / "run"
    bad(
        ["run", data_csv, "-t", "y", *FAST, "--out", out],
        capsys,
        "on purpose",
        "12 bootstraps are saved",
        f"--resume {out}",
    )
    monkeypatch.undo()
    assert main(["run", "--resume", str(out), "-q"]) == 0
    assert "<h1>" in (out / "report.html").read_text()  # the page, not left out
    assert mm.BaseModels.load(out) == mm.BaseModels.load(finished_run)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_resume_works_on_a_checkpoint_without_bootstraps(
    tmp_path, capsys, interrupted_run, data_csv, report_page_left_out
):
    # A run killed after its checkpoint.json, before its first chunk.
    partial = copy_tree(interrupted_run, tmp_path / ".run.partial")
    shutil.rmtree(partial / "bootstraps")
    out = tmp_path / "run"
    bad(["run", data_csv, "-t", "y", *FAST, "--out", out], capsys, "waits", "--resume")
    assert main(["run", "--resume", str(out), "-q"]) == 0
    assert mm.BaseModels.load(out).n_models == 12


def test_an_empty_partial_directory_does_not_block(tmp_path, data_csv, report_page_left_out):
    # A run killed between creating .DIR.partial and writing its checkpoint.
    (tmp_path / ".run.partial").mkdir()
    assert main(["run", str(data_csv), "-t", "y", *FAST, "--out", str(tmp_path / "run")]) == 0


def test_api_run_dir_failing_before_the_first_fit_leaves_nothing(tmp_path, Xy):
    X, y = Xy
    single = np.r_[np.zeros(y.size - 1), 1]  # a class of one sample: refused at the door
    with pytest.raises(ValueError, match="'y' parameter of run"):
        mm.run(X, single, run_dir=tmp_path / "r", **KW)
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------- 2. confinement
def test_a_manifest_path_leaving_the_run_directory_is_refused(tmp_path, bootstrap_dir, Xy):
    run = copy_tree(bootstrap_dir, tmp_path / "run")
    outside = tmp_path / "x.npz"
    shutil.copy(run / "chunk-00000.npz", outside)
    manifest = _manifest(run)
    manifest["chunks"]["0"]["file"] = "../x.npz"
    _write_manifest(run, manifest)
    with pytest.raises(RunDirectoryError, match=r"'\.\./x\.npz', which leaves the run"):
        resume_bootstrap(run, *Xy)
    manifest["chunks"]["0"]["file"] = str(outside)
    _write_manifest(run, manifest)
    with pytest.raises(RunDirectoryError, match="leaves the run directory"):
        resume_bootstrap(run, *Xy)


def test_a_chunk_that_is_a_link_out_of_the_run_is_refused(tmp_path, bootstrap_dir, Xy):
    run = copy_tree(bootstrap_dir, tmp_path / "run")
    outside = tmp_path / "elsewhere.npz"
    shutil.move(run / "chunk-00001.npz", outside)
    (run / "chunk-00001.npz").symlink_to(outside)
    with pytest.raises(RunDirectoryError, match="a link that leads out"):
        resume_bootstrap(run, *Xy)


# ----------------------------------------------------------------------- 3. corrupt files
@pytest.fixture
def saved(tmp_path):
    base = make_base_models(n_models=6, n_features_in=20, n_features=4)
    return base, base.save(tmp_path / "b.npz")


@pytest.mark.parametrize(
    "edit, pattern",
    [
        (lambda a, m: m.update(n_samples="abc"), "field 'n_samples' must be an integer"),
        (lambda a, m: m.update(classes=7), "field 'classes' must be a list"),
        (lambda a, m: m.pop("resampling"), "lacks the field 'resampling'"),
        (lambda a, m: m["selector"].update(params=[1]), "field 'selector.params'"),
        (lambda a, m: m.update(random_state="x1"), "field 'random_state'"),
        (lambda a, m: a.update(subsets_shape=np.array([6, 20, 1])), "'subsets_shape'"),
        (lambda a, m: a.update(subsets_shape=np.array([6, 10**10])), "does not match"),
        (lambda a, m: a.update(subsets_shape=np.array([10**10, 20])), "does not match"),
        (lambda a, m: a.pop("ranks"), "lacks the array(s) ['ranks']"),
        (lambda a, m: a.update(scores=a["scores"][:, :3]), "'scores' has shape"),
        (lambda a, m: a.update(feature_names=a["feature_names"][:5]), "'feature_names'"),
    ],
)
def test_a_schema_invalid_base_models_file_is_refused_by_name(saved, edit, pattern):
    _, path = saved
    rewrite_npz(path, edit)
    with pytest.raises(DataError, match=None) as info:
        mm.BaseModels.load(path)
    assert str(path) in str(info.value) and pattern in str(info.value), str(info.value)


def test_a_record_that_is_a_list_is_not_a_base_models_file(saved):
    _, path = saved
    with np.load(path) as arch:
        arrays = {k: arch[k] for k in arch.files}
    arrays["meta"] = np.array("[1]")
    np.savez(path, **arrays)
    with pytest.raises(DataError, match="not a modelmine BaseModels file"):
        mm.BaseModels.load(path)


@pytest.mark.parametrize(
    "name, content, pattern",
    [
        ("run.json", "[1]", "is not a modelmine.run file"),
        ("run.json", b"\xff\xfe{", "is not valid JSON"),
        ("run.json", '{"format": "modelmine.run"', "is not valid JSON"),
        ("diagnostics.json", '[{"scope": "x"}]', "lacks the field '[0].measure'"),
        ("diagnostics.json", "{}", "must be a list"),
        (
            "signatures.json",
            '{"format": "modelmine.signatures", "operators": {}}',
            "field 'operators' must be a list",
        ),
    ],
)
def test_corrupt_run_files_are_refused_by_name(tmp_path, finished_run, name, content, pattern):
    run = copy_tree(finished_run, tmp_path / "run")
    path = run / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(ModelmineError) as info:
        mm.MiningRun.load(run)
    assert str(path) in str(info.value) and pattern in str(info.value), str(info.value)


@pytest.mark.parametrize(
    "edit, pattern",
    [
        (lambda r: r["settings"].update(n_signatures="many"), "field 'settings.n_signatures'"),
        (lambda r: r["settings"].update(min_support=None), "field 'settings.min_support'"),
        (lambda r: r["data"].pop("source"), "lacks the field 'data.source'"),
        (lambda r: r["data"].update(n_features_in=13), "field 'data.n_features_in' is 13"),
    ],
)
def test_wrong_types_in_run_json_are_refused_before_use(
    tmp_path, finished_run, edit, pattern, capsys
):
    run = copy_tree(finished_run, tmp_path / "run")
    record = json.loads((run / "run.json").read_text())
    edit(record)
    (run / "run.json").write_text(json.dumps(record))
    with pytest.raises(DataError, match=r"run\.json") as info:
        mm.MiningRun.load(run)
    assert pattern in str(info.value)
    bad(["report", run], capsys, pattern)


def test_a_signature_naming_other_features_is_refused(tmp_path, finished_run):
    run = copy_tree(finished_run, tmp_path / "run")
    record = json.loads((run / "signatures.json").read_text())
    record["operators"][0]["result"]["features"][0] = 999
    (run / "signatures.json").write_text(json.dumps(record))
    with pytest.raises(DataError, match="not among the 12"):
        mm.MiningRun.load(run)


@pytest.mark.parametrize(
    "edit, pattern",
    [
        (lambda r: r["settings"].pop("operators"), "lacks the field 'settings.operators'"),
        (lambda r: r["settings"].update(checkpoint_every=0), "'settings.checkpoint_every'"),
        (lambda r: r.update(data=[1]), "field 'data' must be an object"),
    ],
)
def test_a_corrupt_checkpoint_is_refused_by_name(tmp_path, interrupted_run, capsys, edit, pattern):
    partial = copy_tree(interrupted_run, tmp_path / ".run.partial")
    record = json.loads((partial / "checkpoint.json").read_text())
    edit(record)
    (partial / "checkpoint.json").write_text(json.dumps(record))
    bad(["run", "--resume", tmp_path / "run"], capsys, "checkpoint.json", pattern)


@pytest.mark.parametrize(
    "edit, pattern",
    [
        (lambda m: m["chunks"].update({"7": m["chunks"]["0"]}), "chunk 7 is beyond"),
        (lambda m: m.update(chunks=[1, 2]), "field 'chunks' must be an object"),
        (lambda m: m["chunks"].update({"x": m["chunks"]["0"]}), "chunk id 'x'"),
        (lambda m: m["settings"].update(checkpoint_every="4"), "'settings.checkpoint_every'"),
    ],
)
def test_a_corrupt_manifest_is_refused_by_name(tmp_path, bootstrap_dir, Xy, edit, pattern):
    run = copy_tree(bootstrap_dir, tmp_path / "run")
    manifest = _manifest(run)
    edit(manifest)
    _write_manifest(run, manifest)
    with pytest.raises(RunDirectoryError, match="manifest") as info:
        resume_bootstrap(run, *Xy)
    assert pattern in str(info.value)


# ----------------------------------------------------------------------- 4. messages
def test_random_bytes_never_suggest_unpickling(tmp_path):
    path = tmp_path / "base_models.npz"
    path.write_bytes(np.random.default_rng(0).bytes(300))
    with pytest.raises(DataError) as info:
        mm.BaseModels.load(path)
    assert "pickle" not in str(info.value) and str(path) in str(info.value)


def test_a_full_disk_names_the_file(tmp_path, monkeypatch):
    base = make_base_models(n_models=4, n_features_in=10, n_features=3)

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(np, "savez_compressed", full)
    with pytest.raises(OSError, match=r"Could not write '.*b\.npz' \(No space left"):
        base.save(tmp_path / "b.npz")
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_during_the_run_files_names_the_file_and_keeps_the_bootstraps(
    tmp_path, capsys, monkeypatch, data_csv, report_page_left_out
):
    from modelmine import _files

    real = _files.os.fdopen
    manifest = tmp_path / ".run.partial" / "bootstraps" / "manifest.json"

    def full(fd, *args, **kwargs):  # the disk fills up once the bootstraps are saved
        if manifest.exists() and json.loads(manifest.read_text())["complete"]:
            os.close(fd)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, *args, **kwargs)

    monkeypatch.setattr(_files.os, "fdopen", full)
    out = tmp_path / "run"
    assert main(["run", str(data_csv), "-t", "y", *FAST, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert len(lines(err)) == 1 and "Errno" not in err, err
    assert "Could not write" in err and "(No space left on device)" in err, err
    assert "12 bootstraps are saved" in err and "--resume" in err
    monkeypatch.setattr(_files.os, "fdopen", real)
    assert main(["run", "--resume", str(out), "-q"]) == 0


# ----------------------------------------------------------------------- 5. wrong content
@pytest.mark.parametrize(
    "edit, pattern",
    [
        (lambda a, m: a["ranks"].__setitem__((0, 0), -7), "'ranks' ranges over [-7"),
        (lambda a, m: a["ranks"].__setitem__((1, 1), a["ranks"][1, 0]), "not a permutation"),
        (lambda a, m: a.update(ranks=a["ranks"].astype(float) * np.nan), "'ranks' has shape"),
        (lambda a, m: a["sample_indices"].__setitem__((0, 0), 10**6), "outside the 30 samples"),
        (lambda a, m: m.update(n_samples=5), "outside the 5 samples"),
        (lambda a, m: a["scores"].__setitem__((0, 0), np.nan), "NaN or infinite"),
        (
            lambda a, m: a.update(
                subsets=np.packbits(
                    ~np.unpackbits(a["subsets"], axis=1, count=20).astype(bool), axis=1
                )
            ),
            "top 'n_features' ranks",
        ),
    ],
)
def test_well_formed_but_wrong_content_is_refused(saved, edit, pattern):
    _, path = saved
    rewrite_npz(path, edit)
    with pytest.raises(DataError) as info:
        mm.BaseModels.load(path)
    assert pattern in str(info.value), str(info.value)


def test_the_checksum_catches_an_edit_and_format_1_still_loads(saved):
    base, path = saved
    rewrite_npz(path, lambda a, m: a["scores"].__setitem__((0, 0), 99.0), checksum=False)
    with pytest.raises(DataError, match="checksum does not match"):
        mm.BaseModels.load(path)
    base.save(path)

    def version_1(arrays, meta):
        meta["format_version"] = 1

    rewrite_npz(path, version_1, checksum=False)
    with np.load(path) as arch:
        assert "sha256" not in json.loads(str(arch["meta"]))
    assert mm.BaseModels.load(path) == base


# ----------------------------------------------------------------------- 6. damaged archives
@pytest.mark.parametrize("suffix", [".csv.gz", ".csv.bz2", ".csv.xz"])
def test_a_truncated_compressed_table_is_a_data_error(tmp_path, suffix):
    path = tmp_path / f"d{suffix}"
    small_frame(n=300).to_csv(path, index=False)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(DataError, match=f"Cannot read CSV file '.*d{suffix}'"):
        mm.datasets.read_data(path, "y")


# ----------------------------------------------------------------------- 7. degenerate data
@pytest.mark.parametrize(
    "make, pattern",
    [
        (lambda X, y: (np.zeros_like(X), y), "non-constant feature"),
        (lambda X, y: (np.full_like(X, 3.5), y), "non-constant feature"),
        (lambda X, y: (X[:2], y[:2]), "at least 2 samples per class"),
        (lambda X, y: (X[:3], y[:3]), "at least 2 samples per class"),
    ],
)
def test_degenerate_data_fail_before_the_first_fit(monkeypatch, Xy, make, pattern):
    from modelmine.base_models import _bootstrap

    def no_fit(*args, **kwargs):
        raise AssertionError("a fit started")

    monkeypatch.setattr(_bootstrap, "_fit_chunk", no_fit)
    X, y = make(*Xy)
    with pytest.raises(ValueError, match=pattern):
        mm.run(X, y, **KW)


def test_n_features_above_p_is_capped_with_a_warning_everywhere(tmp_path, capsys, data_csv,
                                                                Xy, report_page_left_out):
    """issue 23: one policy for m above p, at every door: capped at p with a warning that
    says so (the CLI prints it as one line on stderr) and the run equals a run at m = p."""
    from modelmine.cli import main

    assert main(["run", str(data_csv), "-t", "y", *map(str, FAST), "-m", "13", "--out",
                 str(tmp_path / "o")]) == 0
    err = capsys.readouterr().err
    assert "warning: n_features=13 is above the 12 features of X: run uses n_features=12." \
        in err
    assert mm.MiningRun.load(tmp_path / "o").base_models.n_features == 12
    X, y = Xy
    for door in (lambda m: mm.bootstrap(X, y, **{**KW, "n_features": m}),
                 lambda m: mm.run(X, y, **{**KW, "n_features": m}).base_models):
        with pytest.warns(UserWarning, match="is above the 12 features of X"):
            capped = door(50)
        assert capped == door(12)


def test_sparse_constant_data_is_refused(Xy):
    import scipy.sparse as sp

    _, y = Xy
    with pytest.raises(ValueError, match="non-constant feature"):
        mm.bootstrap(sp.csr_matrix((30, 12)), y, **KW)
    X = sp.random(30, 12, density=0.3, random_state=0, format="csr")
    assert mm.bootstrap(X, y, **KW).n_models == 12


# ----------------------------------------------------------------------- 8. the lock
def test_a_second_run_into_a_busy_out_is_refused_and_harms_nothing(
    tmp_path, capsys, interrupted_run, data_csv
):
    partial = copy_tree(interrupted_run, tmp_path / ".run.partial")
    before = sorted(p.name for p in partial.rglob("*"))
    with directory_lock(tmp_path / "run"):
        err = bad(
            ["run", data_csv, "-t", "y", *FAST, "--force", "--out", tmp_path / "run"],
            capsys,
            "Another modelmine run is writing",
            f"pid {os.getpid()}",
        )
        assert "waits" not in err
        bad(["run", "--resume", tmp_path / "run"], capsys, "Another modelmine run")
    assert sorted(p.name for p in partial.rglob("*")) == before


_HOLDER = """
import sys, time
from modelmine._files import directory_lock
lock = directory_lock(sys.argv[1])
lock.__enter__()
print("locked", flush=True)
time.sleep(120)
"""


def test_a_killed_holder_releases_the_lock(tmp_path):
    target = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(target)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(RunStateError, match=f"pid {proc.pid}"), directory_lock(target):
            pass
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    with directory_lock(target) as lock:
        assert f"pid {os.getpid()}" in lock.read_text()
    assert not lock.exists()


def test_the_api_locks_its_run_dir(tmp_path, Xy):
    X, y = Xy
    with directory_lock(tmp_path / "r"), pytest.raises(RunStateError, match="Another"):
        mm.run(X, y, run_dir=tmp_path / "r", **KW)
    with directory_lock(tmp_path / "b"), pytest.raises(RunStateError, match="Another"):
        mm.bootstrap(X, y, run_dir=tmp_path / "b", **KW)


# ----------------------------------------------------------------------- 9. sizes and hangs
def test_a_runaway_b_is_refused_at_once_with_the_figure(tmp_path, capsys, data_csv,
                                                        monkeypatch):
    from modelmine.base_models import _bootstrap

    def no_fit(*args, **kwargs):  # "at once": refused before any fit could start
        raise AssertionError("a fit started")

    monkeypatch.setattr(_bootstrap, "_fit_selector", no_fit)
    bad(
        [
            "run",
            data_csv,
            "-t",
            "y",
            "-s",
            "anova",
            "-b",
            "1000000000",
            "-m",
            "5",
            "--out",
            tmp_path / "o",
        ],
        capsys,
        "-b/--n-bootstraps",
        "GiB of memory",
    )
    assert list(tmp_path.iterdir()) == []


def test_the_memory_estimate_refuses_what_does_not_fit(monkeypatch, Xy):
    from modelmine.base_models import _checks

    X, y = Xy
    need = _checks.estimate_memory(3_000_000, 12, 30)
    monkeypatch.setattr(_checks, "available_memory", lambda: need - 1)
    with pytest.raises(ValueError, match=r"'n_bootstraps' parameter .* at most about"):
        mm.bootstrap(X, y, **{**KW, "n_bootstraps": 3_000_000})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_blocking(tmp_path, capsys):
    fifo = tmp_path / "data.csv"
    os.mkfifo(fifo)
    bad(["run", fifo, "-t", "y", *FAST, "--out", tmp_path / "o"], capsys, "not a regular file")


def test_workers_are_capped_at_the_chunks_with_a_warning_above_the_cores(
    monkeypatch, capsys, tmp_path, data_csv, report_page_left_out
):
    from modelmine.base_models import _executors

    seen = []
    real = _executors.Parallel

    def spy(*args, n_jobs=None, **kwargs):
        seen.append(n_jobs)
        return real(*args, n_jobs=1, **kwargs)

    monkeypatch.setattr(_executors, "Parallel", spy)
    jobs = str((os.cpu_count() or 1) + 22)
    assert (
        main(["run", str(data_csv), "-t", "y", *FAST, "--jobs", jobs, "--out", str(tmp_path / "o")])
        == 0
    )
    err = capsys.readouterr().err
    assert seen and max(seen) <= 2  # two chunks of checkpoints (12 bootstraps, by 10)
    # the one warning about the workers; the run's own CAUTION lines (always on stderr,
    # issue 26) say nothing about them
    assert [line for line in lines(err) if not line.startswith("CAUTION:")] == [
        f"modelmine: warning: n_jobs={jobs} is above the "
        f"{os.cpu_count()} cores of this machine: the extra workers only "
        "compete for them (results do not depend on n_jobs)."
    ]


# ----------------------------------------------------------------------- 10. silent changes
def test_duplicate_column_names_are_refused(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("g0,g1,g0,y\n1,2,3,0\n4,5,6,1\n7,8,9,0\n1,1,1,1\n")
    with pytest.raises(DataError, match=r"repeats the column name\(s\) 'g0'"):
        mm.datasets.read_data(path, "y")


def test_a_complex_mat_file_is_refused(tmp_path):
    from scipy.io import savemat

    path = tmp_path / "c.mat"
    X = np.ones((6, 3)) + 1j
    savemat(path, {"X": X, "Y": np.array([[0], [1]] * 3)})
    with pytest.raises(DataError, match="holds complex numbers"):
        mm.datasets.read_data(path)


def test_resume_refuses_settings_it_would_ignore(tmp_path, capsys, interrupted_run):
    copy_tree(interrupted_run, tmp_path / ".run.partial")
    out = tmp_path / "run"
    bad(
        ["run", "--resume", out, "-b", "5", "--seed", "99"],
        capsys,
        "--n-bootstraps",
        "--random-state",  # the option's name (--seed is its old spelling)
        "recorded settings",
    )
    bad(["--seed", "99", "run", "--resume", out], capsys, "--random-state")
    bad(["run", "--resume", out, "--n-feat=3"], capsys, "--n-features")
    bad(["run", "--resume", out, "-oavgRank"], capsys, "--operator")


def test_the_estimator_says_when_it_caps_n_features(Xy):
    X, y = Xy
    sel = mm.ModelMiningSelector(
        selector="anova", operator="mostFreq", n_bootstraps=4, n_features=50, random_state=0
    )
    with pytest.warns(UserWarning, match="n_features=50 is above the 12 features"):
        sel.fit(X, y)
    assert sel.n_features_ == 12


# ----------------------------------------------------------------------- 11. named parameters
def test_l1_logistic_on_four_classes_names_y(Xy):
    X, _ = Xy
    y = np.arange(30) % 4
    with pytest.raises(
        ValueError,
        match=r"'y' parameter of bootstrap must be binary for "
        r"selector 'l1-logistic'",
    ):
        mm.bootstrap(X, y, **{**KW, "selector": "l1-logistic"})


def test_mixed_labels_name_y(Xy):
    X, _ = Xy
    y = np.array(["a", 1] * 15, dtype=object)
    with pytest.raises(TypeError, match=r"'y' parameter .* a mix of int, str"):
        mm.bootstrap(X, y, **KW)


def test_nested_item_sets_name_the_data():
    with pytest.raises(TypeError, match=r"'data' parameter of mine_itemsets .* hashable"):
        mm.mine_itemsets([[1, [2]], [3]], min_support=0.5)


# ----------------------------------------------------------------------- 12. smaller
def test_stale_partials_of_a_killed_write_are_removed(tmp_path, data_csv,
                                                     report_page_left_out):
    stale = tmp_path / ".run.partial-abc123"
    stale.mkdir()
    (stale / "base_models.npz").write_text("half")
    assert main(["run", str(data_csv), "-t", "y", *FAST, "--out", str(tmp_path / "run")]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_resume_keeps_the_original_command_and_works_from_elsewhere(tmp_path, monkeypatch, capsys,
                                                                    report_page_left_out):
    import modelmine.pipeline._run as run_module

    here = tmp_path / "here"
    here.mkdir()
    small_frame().to_csv(here / "d.csv", index=False)
    monkeypatch.chdir(here)
    argv = ["run", "d.csv", "-t", "y", *FAST, "--out", "run"]

    def boom(*args, **kwargs):
        raise DataError("operators failed on purpose")

    with monkeypatch.context() as patch:
        patch.setattr(run_module, "apply_operators", boom)
        assert main(argv) == 2
    capsys.readouterr()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["run", "--resume", str(here / "run"), "-q"]) == 0
    record = json.loads((here / "run" / "run.json").read_text())
    assert record["command"] == ["modelmine", *argv]


def test_outputs_follow_the_umask(tmp_path, data_csv, report_page_left_out):
    old = os.umask(0o022)
    try:
        out = tmp_path / "run"
        assert main(["run", str(data_csv), "-t", "y", *FAST, "--out", str(out)]) == 0
        saved = mm.MiningRun.load(out).save(tmp_path / "saved")
        report = tmp_path / "r.html"
        assert main(["report", str(out), "--out", str(report), "-q"]) == 0
    finally:
        os.umask(old)
    for d in (out, saved):
        assert d.stat().st_mode & 0o777 == 0o755
        for f in ("report.html", "run.json", "base_models.npz", "frequencies.csv"):
            assert (d / f).stat().st_mode & 0o777 == 0o644, (d, f)
    assert report.stat().st_mode & 0o777 == 0o644


# ----------------------------------------------------------------------- found by the fuzz
def test_an_exponent_that_crashes_pandas_is_refused(tmp_path):
    # pandas 2.x's float parser overflows on exponents of 10+ digits and the process dies
    # (pandas-dev/pandas#63089); the fuzz test found it in a damaged CSV. Read in a child
    # process (one for the plain and the gzipped file), so that a regression fails this
    # test instead of killing the suite.
    paths = [tmp_path / f"d{suffix}" for suffix in (".csv", ".csv.gz")]
    frame = small_frame(n=8, p=3).astype(str)
    frame.iloc[3, 1] = "-0.73E483292342275"
    for path in paths:
        frame.to_csv(path, index=False)
    code = (
        "import sys, modelmine as mm\n"
        "for path in sys.argv[1:]:\n"
        "    try:\n        mm.datasets.read_data(path, 'y')\n"
        "    except mm.exceptions.DataError as e:\n        print(e)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert proc.returncode == 0, proc.stderr
    said = proc.stdout.splitlines()
    assert len(said) == 2, proc.stdout
    for path, line in zip(paths, said):
        assert str(path) in line and "whose exponent no floating-point value can have" in line
    # Identifiers that merely contain E and digits are not numbers.
    ids = tmp_path / "ids.csv"
    ids.write_text("ENSE00001234567890,g1,y\n1,2,0\n3,4,1\n1.5e10,5,0\n2,2,1\n")
    assert mm.datasets.read_data(ids, "y").X[2, 0] == 1.5e10


@pytest.mark.parametrize("kept", ["the header", "the first class"])
def test_an_effects_table_cut_between_classes_is_refused(tmp_path, finished_run, kept):
    # the fuzz (test_fuzz_files, effects.csv) found an effects.csv cut to its header that
    # loaded as an empty table: each class it kept held every feature once, and it kept
    # none. A table cut after its first class loaded with that class alone.
    run = copy_tree(finished_run, tmp_path / "run")
    path = run / "effects.csv"
    header, *rows = path.read_text().splitlines()
    first = rows[0].split(",", 1)[0]
    keep = [] if kept == "the header" else [r for r in rows if r.split(",", 1)[0] == first]
    assert len(keep) < len(rows)  # finished_run has two classes of 12 features
    path.write_text("\n".join([header, *keep]) + "\n")
    with pytest.raises(DataError, match=r"effects\.csv' is corrupt: it must hold every "
                                        r"feature of base_models\.npz once per class"):
        mm.MiningRun.load(run)
