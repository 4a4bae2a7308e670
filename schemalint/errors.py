"""Errors every layer may raise or catch, on the ground floor so that no layer imports another
only for an exception class (the runtime bridge and the loaders both raise :class:`SourceError`).
"""

from __future__ import annotations


class SourceError(Exception):
    """A source path or pattern that does not exist or matches no file, a Python source that
    cannot be imported, an MCP server that cannot be listed (exit code 2)."""
