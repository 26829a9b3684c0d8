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

Every chunk (and the full-data model) is determined by the recorded seed: base model i
depends only on (seed, i) (:mod:`._bootstrap`). A resume therefore refits a chunk that is
missing, changed or unreadable instead of refusing the run (issue 50): the damaged chunks
are named in a warning, and the finished run is bit-identical to an uninterrupted one.
What a resume cannot refit is refused (a manifest naming files outside the directory, a
chunk that is a link, a run of another version, other data or settings).
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

from .. import _schema as schema
from .._files import confined, regular_file, umask_mode
from ..exceptions import DataError
from ..selectors import record_from_file
from ..selectors._scaling import SCALE_METHODS

__all__ = ["DamagedCheckpointError", "RunDirectory", "RunDirectoryError", "check_chunk"]

_FORMAT = "modelmine.run"
_FORMAT_VERSION = 1
MANIFEST = "manifest.json"


def _no_constant(name: str) -> Any:
    raise ValueError(f"the non-finite number {name}, which modelmine never writes")


class RunDirectoryError(DataError):
    """A run directory that cannot be used: not a run, other data or settings, corrupt.

    A :class:`~modelmine.exceptions.DataError` (so a ModelmineError and a ValueError)."""


class DamagedCheckpointError(RunDirectoryError):
    """A checkpointed file that is missing, changed or unreadable (a truncated chunk, a
    manifest that is not JSON): nothing a resume could trust, and nothing it needs, since
    every chunk is determined by the recorded seed. A resume refits such chunks; a
    :class:`RunDirectoryError` of another kind (another version, other data or settings, a
    path leaving the directory) is refused."""


def _positive(v: Any) -> bool:
    return v >= 1


#: The scaling a :class:`~modelmine.selectors._scaling.ScaledSelector` records in the
#: selector's description (``modelmine run --scale``).
_SCALE = schema.Where(str, lambda v: v in SCALE_METHODS,
                      "one of " + ", ".join(repr(m) for m in SCALE_METHODS))
_ENTRY = {"file": str, "sha256": str}
_MANIFEST_SCHEMA = {
    "format": str,
    "format_version": int,
    "modelmine_version": str,
    "settings": {
        "selector": {"name": str, "kind": str, "params": dict,
                     "scale": schema.Optional(_SCALE)},
        "n_bootstraps": schema.Where(int, lambda v: v >= 2, "an integer >= 2"),
        "n_features": (schema.Where(int, _positive, "an integer >= 1"), type(None)),
        "resampling": {"method": str, "stratify": bool, "fraction": float},
        "random_state": schema.Where(str, schema.integer_text, "the decimal text of a seed"),
        "fit_full": bool,
        "checkpoint_every": schema.Where(int, _positive, "an integer >= 1"),
        # bootstrap(..., artificial_features=...): chunks then hold 2p columns.
        "artificial_features": schema.Optional(schema.Where(
            str, lambda v: v in ("permutation", "knockoff"), "'permutation' or 'knockoff'")),
    },
    "data_sha256": str,
    "chunks": schema.MapOf(_ENTRY),
    "full_model": (_ENTRY, type(None)),
    "complete": bool,
}


def check_chunk(arrays: Mapping[str, np.ndarray], rows: int, p: int, n_samples: int,
                where: str) -> None:
    """Check the arrays of a checkpointed chunk of ``rows`` bootstraps of ``p`` features
    against what the run expects (names, dtypes, shapes, ranks 1..p, indices < n)."""
    def bad(what: str) -> RunDirectoryError:
        return DamagedCheckpointError(f"{where} is corrupt: {what}.")

    missing = [k for k in ("sample_indices", "subsets", "ranks") if k not in arrays]
    if missing:
        raise bad(f"it lacks the array(s) {missing}")
    idx, packed, ranks = arrays["sample_indices"], arrays["subsets"], arrays["ranks"]
    if idx.dtype.kind not in "iu" or idx.ndim != 2 or idx.shape[0] != rows:
        raise bad(f"'sample_indices' has shape {idx.shape}; expected {rows} rows of integers")
    if idx.size and (idx.min() < -1 or idx.max() >= n_samples):  # -1 pads group resamples
        raise bad(f"sample indices outside the {n_samples} samples of the data")
    if packed.dtype != np.uint8 or packed.shape != (rows, -(-p // 8)):
        raise bad(f"'subsets' has shape {packed.shape}; expected {(rows, -(-p // 8))}")
    if ranks.dtype.kind not in "iu" or ranks.shape != (rows, p):
        raise bad(f"'ranks' has shape {ranks.shape}; expected {(rows, p)} integers")
    if ranks.size and (ranks.min() < 1 or ranks.max() > p):
        raise bad(f"'ranks' are not in 1..{p}")
    if "scores" in arrays:
        sc = arrays["scores"]
        if sc.dtype.kind != "f" or sc.shape != (rows, p) or not np.isfinite(sc).all():
            raise bad(f"'scores' has shape {sc.shape} or non-finite values; expected "
                      f"{(rows, p)} finite numbers")


def _version() -> str:
    from .._version import __version__

    return __version__


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as fh:
            os.fchmod(fh.fileno(), umask_mode(directory=False))
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
        #: The checkpointed files found damaged and fitted again (file -> why).
        self.damaged: dict[str, str] = {}

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
            manifest = json.loads(regular_file(file, "a manifest").read_text(encoding="utf-8"),
                                  parse_constant=_no_constant)
        except DataError as exc:
            raise DamagedCheckpointError(str(exc)) from None
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, the int digit limit
            raise DamagedCheckpointError(f"The manifest of {str(path)!r} is corrupt "
                                         f"({str(file)!r}: {exc}).") from None
        except OSError as exc:
            raise RunDirectoryError(f"Cannot read {str(file)!r} ({exc.strerror or exc})."
                                    ) from None
        if not isinstance(manifest, dict) or manifest.get("format") != _FORMAT:
            raise DamagedCheckpointError(f"{str(path)!r} is not a modelmine run directory "
                                         f"({MANIFEST} is not a run's manifest).")
        try:
            schema.check(manifest, _MANIFEST_SCHEMA, f"The manifest {str(file)!r}")
        except DataError as exc:
            raise DamagedCheckpointError(str(exc)) from None
        for cid in manifest["chunks"]:
            if not (cid.isascii() and cid.isdigit()):
                raise DamagedCheckpointError(f"The manifest {str(file)!r} is corrupt: chunk "
                                             f"id {cid!r} is not a number.")
        if manifest.get("modelmine_version") != _version():
            raise RunDirectoryError(
                f"The run in {str(path)!r} was written by modelmine "
                f"{manifest.get('modelmine_version')}; this is modelmine {_version()}. "
                "Results of different versions are not mixed: finish it with that version "
                "or start a new run.")
        # a selector recorded before a default changed keeps its meaning (ReliefF's variant)
        manifest["settings"]["selector"] = record_from_file(manifest["settings"]["selector"])
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
        """The arrays of a checkpointed file; :class:`DamagedCheckpointError` when it is
        missing, not a regular file, changed (checksum) or unreadable."""
        try:
            file = confined(self.path, name, f"The manifest of {str(self.path)!r}")
        except DataError as exc:
            raise RunDirectoryError(str(exc)) from None
        if not file.exists():
            raise DamagedCheckpointError(f"{name} of the run in {str(self.path)!r} is missing.")
        try:
            data = regular_file(file, "a checkpoint").read_bytes()
        except DataError as exc:
            raise DamagedCheckpointError(str(exc)) from None
        except OSError as exc:
            raise RunDirectoryError(f"Cannot read {str(file)!r} ({exc.strerror or exc})."
                                    ) from None
        if _sha256(data) != sha:
            raise DamagedCheckpointError(
                f"{name} of the run in {str(self.path)!r} was changed or is corrupt "
                "(its checksum does not match the manifest).")
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as arch:
                return {k: arch[k] for k in arch.files}
        except Exception as exc:  # a file with a matching checksum that numpy cannot read
            raise DamagedCheckpointError(f"{name} of the run in {str(self.path)!r} is not a "
                                         f"readable .npz file ({type(exc).__name__}).") from None

    def finished_chunks(self, sizes: list[int] | None = None, p: int | None = None,
                        n_samples: int | None = None) -> dict[int, dict[str, np.ndarray]]:
        """The chunks already finished, checked against their checksums and, given the
        ``sizes`` of the chunks, ``p`` and ``n_samples``, against the run's shapes.

        A chunk that is missing, changed or unreadable (:class:`DamagedCheckpointError`)
        is left out, so that the caller fits it again from the recorded seed, and named in
        :attr:`damaged` (file -> what is wrong with it) and in a ``RuntimeWarning``."""
        out = {}
        damaged: dict[str, str] = {}
        refitted = 0
        for cid, entry in list(self.manifest["chunks"].items()):
            number = int(cid)
            if sizes is not None and number >= len(sizes):
                raise RunDirectoryError(
                    f"The manifest of {str(self.path)!r} is corrupt: chunk {number} is beyond "
                    f"the {len(sizes)} chunks of this run.")
            try:
                arrays = self._load_checked(entry["file"], entry["sha256"])
                if sizes is not None and p is not None and n_samples is not None:
                    check_chunk(arrays, sizes[number], p, n_samples,
                                f"{entry['file']} of the run in {str(self.path)!r}")
            except DamagedCheckpointError as exc:
                damaged[entry["file"]] = _reason(str(exc))
                del self.manifest["chunks"][cid]  # refitted, then recorded again
                refitted += 0 if sizes is None else sizes[number]
                continue
            out[number] = arrays
        self.damaged.update(damaged)
        if damaged:
            self._warn_refit(damaged, refitted if sizes is not None else None)
        return out

    def _warn_refit(self, damaged: Mapping[str, str], n_models: int | None) -> None:
        import warnings

        shown = "; ".join(f"{name} ({why})" for name, why in damaged.items())
        what = (f"their {n_models} base models are" if n_models is not None
                else "it is" if len(damaged) == 1 else "they are")
        warnings.warn(
            f"The checkpoint of the run in {str(self.path)!r} is damaged: {shown}. Every "
            f"chunk is determined by the recorded seed {self.settings.get('random_state')}, "
            f"so {what} fitted again from it: the run ends as an uninterrupted one would.",
            RuntimeWarning, stacklevel=4)

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
        """The checkpointed full-data model, or None when there is none yet or it is
        damaged (then named in a warning, and fitted again by the caller)."""
        entry = self.manifest.get("full_model")
        if entry is None:
            return None
        try:
            arrays = self._load_checked(entry["file"], entry["sha256"])
            ranks, subset = arrays.get("ranks"), arrays.get("subset")
            if (ranks is None or subset is None or ranks.ndim != 1
                    or subset.shape != ranks.shape):
                raise DamagedCheckpointError(
                    f"{entry['file']} of the run in {str(self.path)!r} is corrupt: it lacks "
                    "'ranks' or 'subset' of one shape.")
        except DamagedCheckpointError as exc:
            self.damaged[entry["file"]] = _reason(str(exc))
            self.manifest["full_model"] = None
            self._warn_refit({entry["file"]: _reason(str(exc))}, None)
            return None
        return arrays

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


def _reason(message: str) -> str:
    """What is wrong with a damaged file, from its message, in a few words."""
    for marker, reason in ((" is missing", "missing"),
                           ("checksum does not match", "its checksum does not match the "
                            "manifest"),
                           (" is not a readable .npz", "not a readable .npz file"),
                           (" is a symbolic link", "a symbolic link"),
                           (" is not a regular file", "not a regular file")):
        if marker in message:
            return reason
    if " is corrupt: " in message:
        return message.split(" is corrupt: ", 1)[1].rstrip(".")
    return message.rstrip(".")


def _differences(stored: Any, given: Any, prefix: str = "") -> list[str]:
    if isinstance(stored, dict) and isinstance(given, dict):
        out = []
        for key in sorted(set(stored) | set(given)):
            out += _differences(stored.get(key), given.get(key), f"{prefix}{key}.")
        return out
    if stored != given:
        return [f"{prefix.rstrip('.')} is {stored!r} in the run, {given!r} now"]
    return []
