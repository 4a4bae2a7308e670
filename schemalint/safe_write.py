"""Where schemalint writes: only where it was told, never onto a file it reads, atomically.

Every file schemalint writes (a baseline, a snapshot, the snapshot directory's record of
what it wrote) goes through :func:`atomic_write_text`: a temporary file in the same
directory, flushed and ``fsync``-ed, then ``os.replace``-d onto the target, so a reader
sees the old file or the new one, never a part. :func:`refuse_overwrite` is the one guard
the commands call before they write: it compares the target (symlinks resolved) with the
files the run reads.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path


class WriteRefused(Exception):
    """An output path schemalint will not write (a file it reads, or a file it did not write); exit 2."""


def resolved(path: str | os.PathLike[str]) -> Path:
    """``path`` made absolute with every symlink resolved (``strict=False``: it need not exist)."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return Path(os.path.abspath(path))


def is_within(path: Path, directory: Path) -> bool:
    """Whether resolved ``path`` is ``directory`` or anywhere below it (both already resolved)."""
    return path == directory or directory in path.parents


def refuse_overwrite(target: str | os.PathLike[str], reads: Iterable[str | os.PathLike[str]],
                     what: str) -> None:
    """Raise :class:`WriteRefused` when ``target`` is one of the files in ``reads`` (the sources
    and configuration this run reads), comparing both with every symlink resolved.

    ``what`` names the output in the one-line message (``"baseline"``).
    """
    out = resolved(target)
    for source in reads:
        if out == resolved(source):
            raise WriteRefused(f"{target}: refusing to write the {what} onto {source}, a file this run "
                               "reads; choose another path")


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically (temporary file in the same directory, fsync,
    ``os.replace``). A symlink is followed: its target is replaced and the link kept. The file keeps
    its permission bits (new files: 0644 less the umask). Raises ``OSError``."""
    final = resolved(path) if os.path.islink(path) else Path(path)
    data = text.encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        mode = None
        with contextlib.suppress(OSError):
            mode = final.stat().st_mode & 0o7777
        os.chmod(tmp, mode if mode is not None else 0o644 & ~_umask())
        os.replace(tmp, final)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def directory_lock(directory: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``directory`` (``flock`` on the directory itself, so no
    lock file is left behind); two schemalint runs writing one directory take turns. Where the
    platform has no ``fcntl`` (Windows) this only yields."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
