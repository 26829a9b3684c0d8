"""Run directories: base models checkpointed as they finish, so a killed run resumes.

Layout of a run directory::

    manifest.json          settings, data fingerprint, versions, finished chunks + sha256
    chunk-00000.npz ...    the base models of one chunk of bootstraps
    full_model.npz         the selector fitted on all the data (nobagg)
    base_models.npz        the finished BaseModels (written last)

Every file is numpy ``.npz`` (loaded with ``allow_pickle=False``) or JSON: opening a run
directory never executes code. Each file is written under a temporary name, flushed and
renamed into place, and the manifest is rewritten the same way after each chunk, so a run
killed at any instant (SIGKILL included) leaves only complete files, which resuming checks
against the checksums of the manifest.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["RunDirectory", "RunDirectoryError"]

_FORMAT = "modelmine.run"
_FORMAT_VERSION = 1
MANIFEST = "manifest.json"


class RunDirectoryError(ValueError):
    """A run directory that cannot be used: not a run, other data or settings, corrupt."""


def _version() -> str:
    from .. import __version__

    return __version__


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _npz_bytes(arrays: Mapping[str, np.ndarray]) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
    return buf.getvalue()


class RunDirectory:
    """A checkpointed bootstrap run on disk (see the module docstring for the layout).

    Parameters
    ----------
    path : path-like
        The directory.
    settings : dict
        JSON-serialisable settings of the run (selector, b, m, resampling, seed, ...).
    data_sha256 : str
        Fingerprint of the data.
    """

    def __init__(self, path: str | os.PathLike[str], settings: dict[str, Any],
                 data_sha256: str):
        self.path = Path(path)
        self.settings = settings
        self.data_sha256 = data_sha256
        self.manifest: dict[str, Any] = {}

    # ------------------------------------------------------------------ opening
    @staticmethod
    def read_manifest(path: str | os.PathLike[str]) -> dict[str, Any]:
        """Read and check the manifest of a run directory (format and version)."""
        path = Path(path)
        file = path / MANIFEST
        if not path.is_dir():
            raise RunDirectoryError(f"{str(path)!r} is not a directory: not a modelmine run.")
        if not file.exists():
            raise RunDirectoryError(
                f"{str(path)!r} is not a modelmine run directory (no {MANIFEST}).")
        try:
            manifest = json.loads(file.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RunDirectoryError(f"The manifest of {str(path)!r} is corrupt ({exc}).") from None
        if manifest.get("format") != _FORMAT:
            raise RunDirectoryError(f"{str(path)!r} is not a modelmine run directory.")
        if manifest.get("modelmine_version") != _version():
            raise RunDirectoryError(
                f"The run in {str(path)!r} was written by modelmine "
                f"{manifest.get('modelmine_version')}; this is modelmine {_version()}. "
                "Results of different versions are not mixed: finish it with that version "
                "or start a new run.")
        return manifest

    def open(self, *, resume: bool) -> None:
        """Create the directory, or (with ``resume``) check an existing run against ours."""
        exists = (self.path / MANIFEST).exists()
        if exists and not resume:
            raise RunDirectoryError(
                f"{str(self.path)!r} already holds a modelmine run. Resume it (resume=True, "
                "or `modelmine run --resume DIR`) or choose a new directory.")
        if not exists:
            if self.path.exists() and any(self.path.iterdir()):
                raise RunDirectoryError(
                    f"{str(self.path)!r} exists and is not empty, and it is not a modelmine "
                    "run: choose a new or empty directory.")
            self.path.mkdir(parents=True, exist_ok=True)
            self.manifest = {
                "format": _FORMAT, "format_version": _FORMAT_VERSION,
                "modelmine_version": _version(),
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "settings": self.settings, "data_sha256": self.data_sha256,
                "chunks": {}, "full_model": None, "complete": False,
            }
            self._write_manifest()
            return
        manifest = self.read_manifest(self.path)
        if manifest["data_sha256"] != self.data_sha256:
            raise RunDirectoryError(
                f"The run in {str(self.path)!r} belongs to different data (fingerprint "
                f"{manifest['data_sha256'][:12]}..., given data {self.data_sha256[:12]}...).")
        diffs = _differences(manifest["settings"], self.settings)
        if diffs:
            raise RunDirectoryError(
                f"The run in {str(self.path)!r} has different settings: " + "; ".join(diffs)
                + ".")
        self.manifest = manifest

    def _write_manifest(self) -> None:
        data = json.dumps(self.manifest, indent=1, sort_keys=True).encode()
        _atomic_write(self.path / MANIFEST, data)

    # ------------------------------------------------------------------ chunks
    def _load_checked(self, name: str, sha: str) -> dict[str, np.ndarray]:
        file = self.path / name
        if not file.exists():
            raise RunDirectoryError(
                f"{name} of the run in {str(self.path)!r} is missing; the run is corrupt.")
        data = file.read_bytes()
        if _sha256(data) != sha:
            raise RunDirectoryError(
                f"{name} of the run in {str(self.path)!r} was changed or is corrupt "
                "(its checksum does not match the manifest).")
        with np.load(io.BytesIO(data), allow_pickle=False) as arch:
            return {k: arch[k] for k in arch.files}

    def finished_chunks(self) -> dict[int, dict[str, np.ndarray]]:
        """The chunks already finished, checked against their checksums."""
        return {int(cid): self._load_checked(entry["file"], entry["sha256"])
                for cid, entry in self.manifest["chunks"].items()}

    def write_chunk(self, chunk_id: int, arrays: Mapping[str, np.ndarray]) -> None:
        """Save one finished chunk, then record it in the manifest (both atomically)."""
        name = f"chunk-{chunk_id:05d}.npz"
        data = _npz_bytes(arrays)
        self._guarded_write(name, data)
        updated = json.loads(json.dumps(self.manifest))
        updated["chunks"][str(chunk_id)] = {"file": name, "sha256": _sha256(data)}
        self._guarded_write(MANIFEST, json.dumps(updated, indent=1, sort_keys=True).encode())
        self.manifest = updated  # only once it is on disk

    def full_model(self) -> dict[str, np.ndarray] | None:
        entry = self.manifest.get("full_model")
        return None if entry is None else self._load_checked(entry["file"], entry["sha256"])

    def write_full_model(self, arrays: Mapping[str, np.ndarray]) -> None:
        data = _npz_bytes(arrays)
        self._guarded_write("full_model.npz", data)
        self.manifest["full_model"] = {"file": "full_model.npz", "sha256": _sha256(data)}
        self._guarded_write(MANIFEST, json.dumps(self.manifest, indent=1,
                                                 sort_keys=True).encode())

    def finish(self, base: Any) -> None:
        """Write the finished BaseModels and mark the run complete."""
        try:
            base.save(self.path / "base_models.npz")
        except OSError as exc:
            raise self._write_error("base_models.npz", exc) from exc
        self.manifest["complete"] = True
        self._guarded_write(MANIFEST, json.dumps(self.manifest, indent=1,
                                                 sort_keys=True).encode())

    def _guarded_write(self, name: str, data: bytes) -> None:
        try:
            _atomic_write(self.path / name, data)
        except OSError as exc:
            raise self._write_error(name, exc) from exc

    def _write_error(self, name: str, exc: OSError) -> OSError:
        done = len(self.manifest.get("chunks", {}))
        return OSError(
            exc.errno,
            f"Could not write {name} in the run directory {str(self.path)!r} "
            f"({exc.strerror or exc}). The run stopped; the {done} chunk(s) finished before "
            "are saved. Free space or fix permissions, then resume it (mm.resume(DIR, X, y) "
            "or `modelmine run --resume DIR`).")


def _differences(stored: Any, given: Any, prefix: str = "") -> list[str]:
    if isinstance(stored, dict) and isinstance(given, dict):
        out = []
        for key in sorted(set(stored) | set(given)):
            out += _differences(stored.get(key), given.get(key), f"{prefix}{key}.")
        return out
    if stored != given:
        return [f"{prefix.rstrip('.')} is {stored!r} in the run, {given!r} now"]
    return []
