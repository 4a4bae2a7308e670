"""Unsaved editor buffers read in place of the files on disk.

The language server (:mod:`schemalint.editor.lsp`) checks what the author sees in the editor, not
what was last saved. It does not write the buffer anywhere: for the length of one check it lays
the buffer's text over the file's path, and :func:`schemalint.loaders.files.documents.read_source_bytes`
answers reads of that path from here. Every route of the engine (in memory, held workers forked
during the check, streaming) reads through that function, so all of them see the buffer.

The overlay is process-wide, not per thread: the held route forks workers that must see it too.
Callers therefore run one overlaid check at a time (the language server has a single checking
thread).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

_OVERLAY: dict[str, bytes] = {}


def _key(path: str | os.PathLike[str]) -> str:
    return os.path.realpath(os.fspath(path))


@contextmanager
def overlaid(texts: Mapping[str, str]) -> Iterator[None]:
    """Within the ``with`` block, reads of each path in ``texts`` (``{path: text}``; symlinks are
    resolved, so any spelling of the path matches) return the text, UTF-8 encoded, instead of the
    file's bytes. Nesting replaces the overlaid paths for the inner block and restores them after.
    """
    saved = {}
    for path, text in texts.items():
        key = _key(path)
        saved[key] = _OVERLAY.get(key)
        _OVERLAY[key] = text.encode("utf-8", "surrogatepass")
    try:
        yield
    finally:
        for key, previous in saved.items():
            if previous is None:
                _OVERLAY.pop(key, None)
            else:
                _OVERLAY[key] = previous


def overlay_bytes(path: str | os.PathLike[str]) -> bytes | None:
    """The overlaid bytes of ``path``, or ``None`` when no buffer is laid over it (the common case
    costs one dictionary test)."""
    if not _OVERLAY:
        return None
    return _OVERLAY.get(_key(path))
