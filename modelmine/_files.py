"""Atomic output: a run's directory (or a file) appears complete or not at all.

``modelmine run --out DIR`` writes everything into a fresh temporary directory created
inside the parent of ``DIR`` (so the final rename stays on one file system and is atomic),
then renames it to ``DIR``. If anything fails, the temporary directory is removed: no
half-written directory is ever left under the name the user asked for.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .exceptions import DataError, RunStateError

__all__ = ["atomic_directory", "atomic_file", "check_output_target", "confined",
           "directory_lock", "remove_stale_partials", "replace_directory", "umask_mode",
           "write_error", "write_text_atomic"]


def umask_mode(directory: bool) -> int:
    """The mode a new file (0o666) or directory (0o777) gets under the user's umask.

    ``tempfile.mkdtemp`` / ``mkstemp`` create 0700 / 0600 whatever the umask; the outputs
    that they become are given this mode instead, as other tools' outputs are.
    """
    mask = os.umask(0o022)  # reading the umask means setting it: restore it at once
    os.umask(mask)
    return (0o777 if directory else 0o666) & ~mask


def write_error(path: Path, exc: OSError, what: str = "") -> OSError:
    """An OSError naming the file that could not be written (a bare ``[Errno 28] No space
    left on device`` names none), with ``what`` (what is kept, what to do) appended."""
    reason = exc.strerror or str(exc)
    text = f"Could not write {str(path)!r} ({reason})." + (f" {what}" if what else "")
    return OSError(exc.errno if exc.errno is not None else errno.EIO, text)


def regular_file(path: Path, what: str = "a file of the run directory") -> Path:
    """``path``, checked to be a regular file that is not a symbolic link (DataError
    otherwise): what modelmine reads from a run directory is read from there, never from
    where a link points, and never from a FIFO or a device that would block or never end.
    A missing file passes (the caller says what is missing)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise DataError(f"Cannot read {str(path)!r} ({exc.strerror or exc}).") from None
    if stat.S_ISLNK(info.st_mode):
        raise DataError(f"{str(path)!r} is a symbolic link; modelmine reads {what} only "
                        "from the directory itself, never through a link: refused.")
    if not stat.S_ISREG(info.st_mode):
        raise DataError(f"{str(path)!r} is not a regular file (a directory, pipe, socket or "
                        "device): refused.")
    return path


def confined(root: Path, name: object, where: str) -> Path:
    """``root / name`` for a file name read from a stored record, refused (DataError) when
    it is not a plain relative name, or when it (or a symlink on the way) leads out of
    ``root``: a manifest must never make modelmine read a file elsewhere."""
    if not isinstance(name, str) or not name or "\x00" in name:
        raise DataError(f"{where} names the file {name!r}: expected a file name inside "
                        f"{str(root)!r}.")
    candidate = Path(name)
    if candidate.is_absolute() or ".." in candidate.parts:
        raise DataError(f"{where} names the file {name!r}, which leaves the run directory "
                        f"{str(root)!r}: refused.")
    path = root / candidate
    try:
        inside = path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        inside = False
    if not inside or path.is_symlink():
        raise DataError(f"{where} names the file {name!r}, a link that leads out of the run "
                        f"directory {str(root)!r}: refused.")
    return path


@contextlib.contextmanager
def directory_lock(target: str | os.PathLike[str], what: str = "run") -> Iterator[Path]:
    """Hold an OS lock on ``target`` (a run directory, existing or not) for the block.

    The lock is ``fcntl.flock`` on ``.NAME.lock`` beside ``target``, which records the
    holder's pid and command. The kernel releases it when the holder exits, however it
    exits (SIGKILL included), so a killed run never blocks the next one; a second run on
    the same ``target`` while the first is alive is refused with a message naming it.
    Where ``fcntl`` does not exist (Windows), no lock is taken.

    Raises
    ------
    RunStateError
        Another live process holds the lock.
    """
    path = Path(target).expanduser()
    parent = path.parent if str(path.parent) else Path(".")
    lock = parent / f".{path.name}.lock"
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield lock
        return
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    while True:
        # Never through a symbolic link (it would make modelmine write the lock line into
        # whatever file the link names), never on anything but a regular file.
        if lock.is_symlink():
            raise DataError(f"The lock file {str(lock)!r} is a symbolic link; modelmine "
                            "never writes through one. Remove it and try again.")
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | nofollow | os.O_NONBLOCK, 0o666)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise DataError(f"The lock file {str(lock)!r} is a symbolic link; modelmine "
                                "never writes through one. Remove it and try again.") from None
            raise DataError(f"Cannot create the lock file {str(lock)!r} "
                            f"({exc.strerror or exc}).") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise DataError(f"The lock file {str(lock)!r} is not a regular file (a pipe, "
                            "socket or device); remove it and try again.")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip()
            os.close(fd)
            raise RunStateError(
                f"Another modelmine {what} is writing {str(path)!r} ({holder or 'pid unknown'}"
                f"); wait for it to finish, or choose another directory.") from None
        try:  # the file may have been unlinked by its previous holder in the meantime
            same = os.fstat(fd).st_ino == os.lstat(lock).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        command = " ".join(sys.argv) if sys.argv and sys.argv[0] else "python"
        os.pwrite(fd, f"pid {os.getpid()}: {command}\n".encode(), 0)
        yield lock
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)


def remove_stale_partials(target: str | os.PathLike[str]) -> None:
    """Remove the temporary siblings a killed write of ``target`` left behind
    (``.NAME.partial-XXXX`` directories of :func:`atomic_directory`, ``.NAME.old-XXXX`` of
    :func:`replace_directory`). Call it only under :func:`directory_lock` of ``target``:
    then no live process owns them."""
    path = Path(target).expanduser()
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        return
    for prefix in (f".{path.name}.partial-", f".{path.name}.old-"):
        for stale in parent.glob(f"{glob_escape(prefix)}*"):
            if stale.is_dir() and not stale.is_symlink():
                shutil.rmtree(stale, ignore_errors=True)


def glob_escape(text: str) -> str:
    """``text`` with glob's special characters escaped."""
    import glob

    return glob.escape(text)


def check_output_target(out: str | os.PathLike[str], *, force: bool, what: str = "directory"
                        ) -> Path:
    """Check, before any long work, that ``out`` can be written.

    Raises
    ------
    DataError
        The parent does not exist or is not writable, or ``out`` exists (without
        ``force``), or ``out`` exists and is of the other kind (file vs directory), or
        ``out`` is a symbolic link (the rename that writes it would replace the link:
        issue 50, an empty linked directory was replaced silently).
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
    if path.is_symlink() and not path.exists():
        raise DataError(f"Output {what} {str(path)!r} is a symbolic link to nothing "
                        f"({os.readlink(path)!r}); remove it or choose another --out.")
    if path.is_symlink():  # an output appears by a rename, which would replace the link
        raise DataError(f"Output {what} {str(path)!r} is a symbolic link to "
                        f"{str(path.resolve())!r}: modelmine writes its outputs by renaming "
                        "them into place, which would replace the link, not write there; "
                        f"give --out {str(path.resolve())!r}.")
    if path.exists():
        if what == "directory" and not path.is_dir():
            raise DataError(f"Output directory {str(path)!r} exists and is a file.")
        if what == "file" and path.is_dir():
            raise DataError(f"Output file {str(path)!r} exists and is a directory.")
        if not force and (what == "file" or any(path.iterdir())):
            raise DataError(f"Output {what} {str(path)!r} already exists; choose another "
                            "--out or pass --force to replace it.")
        if force and what == "directory":
            _check_replaceable(path)
    return path


#: Files one of which every directory modelmine writes holds (a run, its checkpoint or
#: bootstrap manifest, the outputs of ``markers`` and ``evaluate``): ``--force`` replaces
#: only a directory that holds one (issue 40: it deleted a directory of unrelated files).
OUTPUT_MARKERS = ("run.json", "checkpoint.json", "manifest.json", "base_models.npz",
                  "markers.csv", "panels.gmt", "evaluation.csv", "folds.csv")


def _check_replaceable(path: Path) -> None:
    """Refuse to replace a non-empty directory that modelmine did not write."""
    try:
        names = sorted(entry.name for entry in path.iterdir())
    except OSError as exc:
        raise DataError(f"Cannot read {str(path)!r}: {exc.strerror or exc}.") from None
    if not names or any(name in OUTPUT_MARKERS for name in names):
        return
    shown = ", ".join(repr(n) for n in names[:5]) + (
        f" and {len(names) - 5} more" if len(names) > 5 else "")
    raise DataError(f"Output directory {str(path)!r} is not a modelmine output (it holds "
                    f"{shown}, and none of {', '.join(OUTPUT_MARKERS[:3])}, ...): --force "
                    "replaces only a directory modelmine wrote. Choose another --out, or "
                    "move those files away yourself.")


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
        tmp.chmod(umask_mode(directory=True))
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
    os.fchmod(fd, umask_mode(directory=False))
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
        os.fchmod(fd, umask_mode(directory=False))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise write_error(path, exc) from exc
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path
