"""Regular expressions compiled on first use, for the rule modules' module-level patterns.

Compiling every pattern of the rule modules at import cost about 25 ms of a ``check`` of one
small file (docs/performance.md, start-up); most runs on a few tools need few of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any


class LazyPattern:
    """A ``re.compile(*args)`` compiled on first use; it answers the methods of a compiled pattern
    (``search``, ``match``, ``fullmatch``, ``finditer``, ``findall``, ``sub``, ``subn``, ``split``) and its
    attributes (``pattern``, ``flags``, ``groups`` ... through :meth:`compiled`)."""

    _METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")

    def __init__(self, *args: Any) -> None:
        self._args = args
        self._compiled: re.Pattern[str] | None = None

    def _get(self) -> re.Pattern[str]:
        if self._compiled is None:
            compiled = self._compiled = re.compile(*self._args)
            # from now on the compiled pattern's own methods answer (instance attributes come before
            # the methods below), so a hot loop pays no extra call
            for name in self._METHODS:
                self.__dict__[name] = getattr(compiled, name)
        return self._compiled

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiling it now if needed), for hot loops."""
        return self._compiled or self._get()

    @property
    def pattern(self) -> str:
        """The pattern's source text."""
        return str(self._args[0])

    def search(self, *args: Any) -> re.Match[str] | None:
        return self._get().search(*args)

    def match(self, *args: Any) -> re.Match[str] | None:
        return self._get().match(*args)

    def fullmatch(self, *args: Any) -> re.Match[str] | None:
        return self._get().fullmatch(*args)

    def finditer(self, *args: Any) -> Iterator[re.Match[str]]:
        return self._get().finditer(*args)

    def findall(self, *args: Any) -> list[Any]:
        return self._get().findall(*args)

    def sub(self, *args: Any) -> str:
        return self._get().sub(*args)

    def subn(self, *args: Any) -> tuple[str, int]:
        return self._get().subn(*args)

    def split(self, *args: Any) -> list[Any]:
        return self._get().split(*args)


lazy_re = LazyPattern
