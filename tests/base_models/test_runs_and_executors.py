"""Run directories (checkpoint, kill, resume) and the Dask executor (issue: scale)."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import numpy as np
import pytest

import modelmine as mm
from modelmine.base_models import RunDirectoryError, _rundir
from modelmine.pipeline import resume as resume_bootstrap

KW = dict(selector="anova", n_bootstraps=12, n_features=10, random_state=5)


@pytest.fixture(scope="module")
def data(colon):
    X, y, _names = colon
    return X[:, :400], y


def test_run_directory_records_and_reloads(tmp_path, data):
    X, y = data
    run = tmp_path / "run"
    base = mm.bootstrap(X, y, run_dir=run, checkpoint_every=5, **KW)
    assert base == mm.bootstrap(X, y, **KW)  # checkpointing changes nothing
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["complete"] and sorted(manifest["chunks"]) == ["0", "1", "2"]
    assert mm.BaseModels.load(run) == base
    files = sorted(p.name for p in run.iterdir())
    assert files == ["base_models.npz", "chunk-00000.npz", "chunk-00001.npz",
                     "chunk-00002.npz", "full_model.npz", "manifest.json"]
    # Nothing is pickled: every file opens with allow_pickle=False.
    for f in run.glob("*.npz"):
        with np.load(f, allow_pickle=False) as arch:
            [arch[k] for k in arch.files]
    # Resuming a finished run recomputes nothing and gives the same models.
    assert resume_bootstrap(run, X, y) == base


def test_resume_after_partial_run_is_bit_identical(tmp_path, data, monkeypatch):
    X, y = data
    run = tmp_path / "run"
    real = _rundir._atomic_write
    calls = {"n": 0}

    def failing(path, payload):
        calls["n"] += 1
        if calls["n"] > 4:  # manifest, chunk 0 + manifest, chunk 1 ... then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, payload)

    monkeypatch.setattr(_rundir, "_atomic_write", failing)
    with pytest.raises(OSError, match=r"Could not write .*No space left on device.*"
                                      r"chunk\(s\) finished before are saved.*resume"):
        mm.bootstrap(X, y, run_dir=run, checkpoint_every=3, n_jobs=1, **KW)
    monkeypatch.setattr(_rundir, "_atomic_write", real)
    saved = json.loads((run / "manifest.json").read_text())
    assert not saved["complete"] and len(saved["chunks"]) == 1
    resumed = resume_bootstrap(run, X, y, n_jobs=2)
    assert resumed == mm.bootstrap(X, y, **KW)


def test_resume_refuses_other_data_settings_versions_and_corruption(tmp_path, data):
    X, y = data
    run = tmp_path / "run"
    mm.bootstrap(X, y, run_dir=run, checkpoint_every=4, **KW)
    with pytest.raises(RunDirectoryError, match="different data"):
        resume_bootstrap(run, X + 1.0, y)
    with pytest.raises(RunDirectoryError, match=r"different settings: n_features is 10 in "
                                                r"the run, 11 now"):
        mm.bootstrap(X, y, run_dir=run, resume=True, **{**KW, "n_features": 11})
    with pytest.raises(RunDirectoryError, match="already holds a modelmine run"):
        mm.bootstrap(X, y, run_dir=run, **KW)

    # a changed chunk is fitted again from the recorded seed (issue 50), named in a warning
    chunk = run / "chunk-00001.npz"
    chunk.write_bytes(chunk.read_bytes()[:-10] + b"0123456789")
    with pytest.warns(RuntimeWarning, match=r"chunk-00001.npz \(its checksum does not"):
        assert resume_bootstrap(run, X, y) == mm.bootstrap(X, y, **KW)

    manifest = json.loads((run / "manifest.json").read_text())
    manifest["modelmine_version"] = "0.0.1"
    (run / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(RunDirectoryError, match=r"written by modelmine 0.0.1; this is"):
        resume_bootstrap(run, X, y)

    (run / "manifest.json").write_text("{not json")
    with pytest.raises(RunDirectoryError, match=r"manifest .* is corrupt"):
        resume_bootstrap(run, X, y)

    stray = tmp_path / "stray"
    stray.mkdir()
    (stray / "notes.txt").write_text("mine")
    with pytest.raises(mm.exceptions.RunStateError, match="No interrupted run in"):
        resume_bootstrap(stray, X, y)
    with pytest.raises(RunDirectoryError, match="exists and is not empty"):
        mm.bootstrap(X, y, run_dir=stray, **KW)
    with pytest.raises(ValueError, match=r"'run_dir' parameter .* when resume=True"):
        mm.bootstrap(X, y, resume=True, **KW)


#: The child stops itself after its second checkpointed chunk: it says so in a file and
#: waits to be killed, so the kill lands at a known moment (no race against a poll).
_CHILD = """
import sys, time, modelmine as mm
from modelmine.base_models import _rundir

write_chunk = _rundir.RunDirectory.write_chunk
written = []

def write_and_stop(self, cid, arrays):
    write_chunk(self, cid, arrays)
    written.append(cid)
    if len(written) == 2:
        with open(sys.argv[2], "w") as fh:
            fh.write("2")
        time.sleep(600)

_rundir.RunDirectory.write_chunk = write_and_stop
X, y = mm.datasets.load_colon()
mm.bootstrap(X, y, selector="random-forest", selector_params={"n_estimators": 20},
             n_bootstraps=12, n_features=10, random_state=3, n_jobs=1,
             run_dir=sys.argv[1], checkpoint_every=3, progress=False)
"""


@pytest.mark.slow
def test_sigkill_midway_then_resume(tmp_path, killed_when_written):
    run = tmp_path / "run"
    stopped = tmp_path / "stopped"
    killed_when_written(_CHILD, run, stopped, marker=stopped)
    state = json.loads((run / "manifest.json").read_text())
    assert not state["complete"] and len(state["chunks"]) == 2
    X, y = mm.datasets.load_colon()
    resumed = resume_bootstrap(run, X, y, n_jobs=2)
    uninterrupted = mm.bootstrap(X, y, selector="random-forest",
                                 selector_params={"n_estimators": 20}, n_bootstraps=12,
                                 n_features=10, random_state=3, n_jobs=2)
    assert resumed == uninterrupted
    assert not list(Path(run).glob(".*tmp*"))


@pytest.mark.slow
def test_dask_local_cluster_is_bit_identical_to_serial(data):
    distributed = pytest.importorskip("distributed")
    X, y = data
    serial = mm.bootstrap(X, y, n_jobs=1, **{**KW, "selector": "random-forest",
                                            "selector_params": {"n_estimators": 20}})
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = mm.bootstrap(X, y, executor=client, **{
            **KW, "selector": "random-forest", "selector_params": {"n_estimators": 20}})
        by_address = mm.bootstrap(X, y, executor=cluster.scheduler_address, **{
            **KW, "selector": "random-forest", "selector_params": {"n_estimators": 20}})
    assert on_dask == serial
    assert by_address == serial


def test_bad_executors(data, monkeypatch):
    # unreachable either way: one second is enough to know it
    monkeypatch.setattr("modelmine.base_models._executors.CONNECT_TIMEOUT", "1s")
    X, y = data
    with pytest.raises(TypeError, match=r"'executor' parameter of bootstrap must be a "
                                        r"dask.distributed.Client or a scheduler address"):
        mm.bootstrap(X, y, executor=object(), **KW)
    with pytest.raises(ValueError, match=r"'executor' .* reachable Dask scheduler .* "
                                         r"'tcp://127.0.0.1:9'"):
        mm.bootstrap(X, y, executor="tcp://127.0.0.1:9", **KW)
