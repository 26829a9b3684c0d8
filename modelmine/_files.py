"""Atomic output: a run's directory (or a file) appears complete or not at all.

``modelmine run --out DIR`` writes everything into a fresh temporary directory created
inside the parent of ``DIR`` (so the final rename stays on one file system and is atomic),
then renames it to ``DIR``. If anything fails, the temporary directory is removed: no
half-written directory is ever left under the name the user asked for.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .exceptions import DataError

__all__ = ["atomic_directory", "atomic_file", "check_output_target", "replace_directory",
           "write_text_atomic"]


def check_output_target(out: str | os.PathLike[str], *, force: bool, what: str = "directory"
                        ) -> Path:
    """Check, before any long work, that ``out`` can be written.

    Raises
    ------
    DataError
        The parent does not exist or is not writable, or ``out`` exists (without
        ``force``), or ``out`` exists and is of the other kind (file vs directory).
    """
    path = Path(out).expanduser()
    parent = path.parent if str(path.parent) else Path(".")
    if parent.exists() and not parent.is_dir():
        raise DataError(f"Cannot write {str(path)!r}: {str(parent)!r} is not a directory.")
    if not parent.exists():
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DataError(f"Cannot create {str(parent)!r}: {exc.strerror or exc}.") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise DataError(f"Output {what} {str(path)!r} is not writable: no write permission "
                        f"on {str(parent.resolve())!r}.")
    if path.exists():
        if what == "directory" and not path.is_dir():
            raise DataError(f"Output directory {str(path)!r} exists and is a file.")
        if what == "file" and path.is_dir():
            raise DataError(f"Output file {str(path)!r} exists and is a directory.")
        if not force and (what == "file" or any(path.iterdir())):
            raise DataError(f"Output {what} {str(path)!r} already exists; choose another "
                            "--out or pass --force to replace it.")
    return path


@contextlib.contextmanager
def atomic_directory(out: str | os.PathLike[str], *, force: bool = False) -> Iterator[Path]:
    """Yield a temporary directory that becomes ``out`` when the block succeeds.

    The temporary directory lives in the parent of ``out`` and starts with a dot, so it
    never looks like a finished run. An existing ``out`` is replaced only with ``force``
    (it is moved aside, the new one renamed in, then the old one deleted).
    """
    path = check_output_target(out, force=force)
    parent = path.parent if str(path.parent) else Path(".")
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.partial-", dir=parent))
    except OSError as exc:
        raise DataError(f"Cannot write into {str(parent)!r}: {exc.strerror or exc}.") from None
    try:
        yield tmp
        replace_directory(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def replace_directory(src: Path, dest: Path) -> None:
    """Rename the finished directory ``src`` to ``dest`` (same file system), replacing an
    existing ``dest``: it is moved aside first and deleted only once ``src`` is in place."""
    parent = dest.parent if str(dest.parent) else Path(".")
    old = None
    if dest.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.old-", dir=parent))
        os.replace(dest, old / "previous")
    os.replace(src, dest)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def atomic_file(out: str | os.PathLike[str], *, force: bool = False) -> Iterator[Path]:
    """Yield a temporary file path (same directory, dot-prefixed) renamed to ``out`` at the end."""
    path = check_output_target(out, force=force, what="file")
    parent = path.parent if str(path.parent) else Path(".")
    fd, name = tempfile.mkstemp(prefix=f".{path.stem}.partial-", suffix=path.suffix,
                                dir=parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text_atomic(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` through a temporary file in the same directory, renamed at
    the end: an interrupted write never leaves a truncated file under ``path``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path
