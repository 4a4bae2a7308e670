"""Where schemalint writes: only where it was told, never onto a file it reads, atomically.

One write policy for every path a user names for output (``--write-baseline``, ``--summary-out``,
the files of a snapshot directory and its record): :func:`write_output` checks the target with
:func:`check_output` and writes it with :func:`atomic_write_text`. The target is refused
(:class:`WriteRefused`, one line naming the path and the reason) when

* it is a symbolic link, or a path through one, that leads out of the project (a link planted
  in a shared directory, or ``out/ -> /etc``): the path as written is inside the project, or its
  last component is a link, and the place it resolves to is not inside the project;
* it exists and is not a regular file (a device such as ``/dev/null``, a FIFO, a socket, a
  directory);
* it is, through links, one of the files this run reads (a source, the configuration, the
  baseline or ``--previous`` file);
* it exists, is not empty and is not a previous output of the same kind, recognised by its
  content (``"schemalint_baseline"`` in a baseline, ``"schemalint-summary"`` in a shard summary):
  a README or a tool file is never replaced (a blank file, made with ``touch`` or ``mktemp``, is).

:func:`atomic_write_text` writes a temporary file in the target's directory, flushes and
``fsync``-s it, then ``os.replace``-s it onto the target: a reader sees the old file or the new
one, never a part, and the path that is replaced is the resolved one (a link inside the project
is kept, its target replaced).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path


class WriteRefused(Exception):
    """An output path schemalint will not write (a file it reads, a file it did not write, a link out
    of the project, something that is not a regular file); the commands exit 2 with its message."""


HEAD_BYTES = 65536
"""How much of an existing target :func:`check_output` reads to recognise a previous output."""


def resolved(path: str | os.PathLike[str]) -> Path:
    """``path`` made absolute with every symlink resolved (``strict=False``: it need not exist)."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return Path(os.path.abspath(path))


def is_within(path: Path, directory: Path) -> bool:
    """Whether resolved ``path`` is ``directory`` or anywhere below it (both already resolved)."""
    return path == directory or directory in path.parents


def leads_out_through_a_link(target: Path, project: Path) -> Path | None:
    """Where ``target`` leads when it is a symlink or a path through one that leads out of
    ``project`` (see the module docstring); ``None`` otherwise."""
    absolute = Path(os.path.abspath(target))
    final = resolved(target)
    if final == absolute:
        return None  # no link on the way
    root = resolved(project)
    if is_within(final, root):
        return None
    if os.path.islink(target) or is_within(absolute, Path(os.path.abspath(project))) or is_within(absolute, root):
        return final
    return None  # the user named a place outside the project whose parents are links (/tmp -> /private/tmp)


def _refuse_link_out(target: str | os.PathLike[str], project: str | os.PathLike[str] | None, doing: str,
                     advice: str = "") -> None:
    """Raise :class:`WriteRefused` when ``target`` is a symbolic link, or a path through one, that
    leads out of ``project`` (``None``: no check); the message says what was refused (``doing``:
    ``write the baseline``, ``fix it``) and ``advice``."""
    if project is None:
        return
    out = leads_out_through_a_link(Path(target), Path(project))
    if out is not None:
        raise WriteRefused(f"{target}: refusing to {doing} through a symbolic link that leads out of the "
                           f"project {project} (to {out}){advice}")


def check_output(target: str | os.PathLike[str], *, what: str, is_ours: Callable[[bytes], bool],
                 reads: Iterable[str | os.PathLike[str]] = (), project: str | os.PathLike[str] | None = None) -> None:
    """Raise :class:`WriteRefused` when schemalint must not write its ``what`` (``"baseline"``,
    ``"shard summary"``) to ``target``; return when it may (see the module docstring for the
    policy). ``is_ours(first bytes)`` recognises a previous output of this kind
    (:func:`schemalint.engine.baseline.is_baseline_text`); ``reads`` are the files this run
    reads; ``project`` the project root (links leading out of it are refused; ``None``: no link
    check). Reads at most
    :data:`HEAD_BYTES` of a regular file; never opens anything else."""
    path = Path(target)
    _refuse_link_out(target, project, f"write the {what}", "; name a path inside it")
    final = resolved(path)
    try:
        st = os.stat(final)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise WriteRefused(f"{target}: cannot write the {what}: {exc.strerror or exc}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise WriteRefused(f"{target}: refusing to write the {what}: it is {_kind_of(st.st_mode)}, not a "
                           "regular file; choose a file path")
    for source in reads:
        if final == resolved(source):
            raise WriteRefused(f"{target}: refusing to write the {what} onto {source}, a file this run "
                               "reads; choose another path")
    if st is None or st.st_size == 0:
        return
    try:
        fd = os.open(final, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise WriteRefused(f"{target}: cannot read it to see whether it is a schemalint {what}: "
                           f"{exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since the stat above
            raise WriteRefused(f"{target}: refusing to write the {what}: not a regular file")
        head = os.read(fd, HEAD_BYTES)
    finally:
        os.close(fd)
    if not head.strip() and len(head) == st.st_size:
        return  # blank: made for the output (touch, mktemp)
    if not is_ours(head):
        raise WriteRefused(f"{target}: exists and is not a schemalint {what}; refusing to overwrite it "
                           "(remove it first or choose another path)")


def _kind_of(mode: int) -> str:
    """``"a directory"``, ``"a FIFO"`` ...: what a file that is not a regular file is."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def write_output(target: str | os.PathLike[str], text: str, *, what: str, is_ours: Callable[[bytes], bool],
                 reads: Iterable[str | os.PathLike[str]] = (), project: str | os.PathLike[str] | None = None) -> None:
    """:func:`check_output`, then :func:`atomic_write_text`: the one way a command writes a file
    the user named. Raises :class:`WriteRefused` (nothing written) or ``OSError``."""
    check_output(target, what=what, is_ours=is_ours, reads=reads, project=project)
    atomic_write_text(target, text)


def atomic_write_text(path: str | os.PathLike[str], text: str, *, follow_links: bool = True) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically (temporary file in the same directory, fsync,
    ``os.replace``). A symlink is followed (its target replaced, the link kept) unless
    ``follow_links`` is false: then a link at ``path`` raises ``OSError`` (``ELOOP``) and nothing is
    written. The file keeps its permission bits (new files: 0644 less the umask). Raises ``OSError``."""
    if os.path.islink(path) and not follow_links:
        import errno

        raise OSError(errno.ELOOP, "is a symbolic link; not written through", os.fspath(path))
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


def append_text(path: str | os.PathLike[str], text: str) -> None:
    """Append ``text`` (UTF-8) to the regular file ``path``, creating it (0644 less the umask) when
    missing: for a file another program names and owns, such as the job summary GitHub's runner
    names in ``GITHUB_STEP_SUMMARY``. Opened without blocking and checked after opening, so a FIFO
    or a device named there raises ``OSError`` at once instead of hanging or writing to a device.
    Raises ``OSError``."""
    import errno

    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, f"{_kind_of(os.fstat(fd).st_mode)}, not a regular file", os.fspath(path))
        data = text.encode("utf-8")
        while data:
            data = data[os.write(fd, data):]
    finally:
        os.close(fd)


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


def write_source(target: str | os.PathLike[str], text: str, *, sources: Iterable[str | os.PathLike[str]],
                 project: str | os.PathLike[str] | None = None) -> None:
    """Write the fixed ``text`` of a tool file back (``schemalint check --fix``): the one write onto a
    file the run read, allowed only when ``target`` is, through links, one of ``sources`` (the files
    this run read as tool definitions); never through a link that leads out of ``project``, never
    onto something that is not a regular file; atomic (:func:`atomic_write_text`, permission bits
    kept, a link inside the project kept and its target replaced). Raises :class:`WriteRefused`
    (nothing written) or ``OSError``."""
    path = Path(target)
    _refuse_link_out(target, project, "fix it")
    final = resolved(path)
    if final not in {resolved(s) for s in sources}:
        raise WriteRefused(f"{target}: refusing to write it: it is not a tool file this run read")
    try:
        st = os.stat(final)
    except OSError as exc:
        raise WriteRefused(f"{target}: cannot write it: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise WriteRefused(f"{target}: refusing to write it: it is {_kind_of(st.st_mode)}, not a regular file")
    atomic_write_text(final, text)
