"""The one way schemalint reads a file the user names: sources, baselines, ``--previous`` and
``--summaries`` files, the file ``--write-baseline`` would replace, replay logs, configurations.

Every such read goes through :func:`open_regular` (or the helpers built on it), which opens
without blocking and checks the open descriptor, so a FIFO, a device such as ``/dev/zero``, a
socket or a directory is refused without being read (a blocking open of a FIFO with no writer
would hang the run; ``/dev/zero`` would exhaust memory); :func:`read_bytes` stops at a size bound
(a file that grows while it is read included); :func:`read_text` reports invalid UTF-8 with the
file, line, column and byte offset. Streaming readers (replay logs) take the checked handle from
:func:`open_regular` and bound what they hold themselves (a line, a record).

The errors are :class:`UnreadableFile` (an ``OSError``: callers that already handle ``OSError``
keep working) whose message names the file and the reason.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO

MAX_FILE_BYTES = 256 * 1024 * 1024
"""The size bound of one file read whole (256 MiB): a larger one is not read, so a symlink onto a
huge or endless file cannot exhaust memory."""

MAX_CONFIG_BYTES = 16 * 1024 * 1024
"""The size bound of a configuration file (``pyproject.toml``, ``schemalint.toml``): 16 MiB, far
above any real one; a larger file is refused before TOML parsing holds it several times over."""

_SPECIAL_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                  (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


class UnreadableFile(OSError):
    """A named file that is not read: not a regular file, above the size bound, not UTF-8, or an
    I/O error. ``str()`` is ``"<file>: <reason>"``; ``reason`` alone is in :attr:`reason`."""

    def __init__(self, path: str | os.PathLike[str], reason: str, code: int = errno.EINVAL) -> None:
        super().__init__(code, reason)
        self.path = os.fspath(path)
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def special_kind(mode: int) -> str | None:
    """``"a FIFO"``, ``"a character device"``... for a ``st_mode`` that is not a regular file
    (``None`` for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _SPECIAL_KINDS if test(mode)), "not a regular file")


def open_regular(path: str | os.PathLike[str], limit: int | None = MAX_FILE_BYTES) -> BinaryIO:
    """An open binary handle on the regular file ``path`` (symlinks followed).

    Opened with ``O_NONBLOCK`` (a FIFO without a writer opens at once instead of hanging) and
    checked with ``fstat`` on the open descriptor (no race with a rename); blocking mode is
    restored before the handle is returned. ``limit``: refuse a file whose size is above it
    (``None``: any size, for readers that stream and bound their own records).
    Raises :class:`UnreadableFile` for anything else than a regular file, a file above ``limit``
    and any I/O error (``FileNotFoundError`` is raised as it is, so callers can word it).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise UnreadableFile(path, f"cannot read file: {exc.strerror or exc}", exc.errno or errno.EIO) from None
    try:
        st = os.fstat(fd)
        kind = special_kind(st.st_mode)
        if kind is not None:
            raise UnreadableFile(path, f"{kind}, not a regular file: schemalint reads only regular files")
        if limit is not None and st.st_size > limit:
            raise UnreadableFile(path, f"{st.st_size:,} bytes, above the {limit:,}-byte size bound: not read",
                                 errno.EFBIG)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (see :func:`open_regular`), at most ``limit`` of them
    (a file that grows past it while it is read is refused too). Raises :class:`UnreadableFile`
    or ``FileNotFoundError``."""
    with open_regular(path, limit) as handle:
        chunks: list[bytes] = []
        total = 0
        while True:
            try:
                chunk = handle.read(1 << 20)
            except OSError as exc:
                raise UnreadableFile(path, f"cannot read file: {exc.strerror or exc}",
                                     exc.errno or errno.EIO) from None
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise UnreadableFile(path, f"more than the {limit:,}-byte size bound: not read", errno.EFBIG)
            chunks.append(chunk)
    return b"".join(chunks)


def utf8_problem(data: bytes, exc: UnicodeDecodeError) -> str:
    """Where ``data`` stops being UTF-8, in words: ``invalid UTF-8 (byte 0xff at line 3, column 7,
    offset 41)``."""
    before = data[: exc.start]
    line = before.count(b"\n") + 1
    column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", errors="replace")) + 1
    return f"invalid UTF-8 (byte 0x{data[exc.start]:02x} at line {line}, column {column}, offset {exc.start})"


def decode_utf8(path: str | os.PathLike[str], data: bytes) -> str:
    """``data`` decoded as UTF-8 (a leading byte-order mark dropped); raises :class:`UnreadableFile`
    naming the file and the place of the first invalid byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(path, utf8_problem(data, exc) + "; the file was not read") from None


def read_text(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file ``path``: :func:`read_bytes` then :func:`decode_utf8`.
    Raises :class:`UnreadableFile` or ``FileNotFoundError``."""
    return decode_utf8(path, read_bytes(path, limit))
