"""Optional framework dependencies: import them lazily, name the extra when one is missing.

schemalint's core needs none of the tool frameworks. Each one is an optional extra
(``pip install 'schemalint[mcp]'``, ``[agents]``, ``[langchain]``); a loader that needs
one calls :func:`require`, which raises :class:`MissingExtraError` (a
:class:`~schemalint.errors.SourceError`, so the CLI exits 2) naming the extra.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from schemalint.distribution import extra_install_line
from schemalint.errors import SourceError

# top-level import name -> the schemalint extra that installs it
EXTRA_FOR_MODULE: dict[str, str] = {
    "mcp": "mcp",
    "fastmcp": "mcp",
    "agents": "agents",
    "openai": "agents",
    "langchain_core": "langchain",
    "langchain": "langchain",
    "pydantic": "pydantic",
    "pydantic_ai": "pydantic-ai",
}


class MissingExtraError(SourceError):
    """A framework module schemalint needs is not installed; the message names the extra."""


def install_hint(module: str) -> str | None:
    """The ``pip install`` line of the extra that brings a (dotted) module we know, else ``None``."""
    extra = EXTRA_FOR_MODULE.get(module.split(".")[0])
    return extra_install_line(extra) if extra else None


IN_PRE_COMMIT = ("inside pre-commit's own environment, which has neither your project nor its "
                 "dependencies: run this hook as a `repo: local` hook with `language: system` in your "
                 "project's environment (docs/ci.md, \"pre-commit\")")
"""What to do instead of installing into pre-commit's isolated hook environment."""


def in_pre_commit() -> bool:
    """Whether schemalint runs as a pre-commit hook (pre-commit sets ``PRE_COMMIT=1`` for hooks)."""
    import os

    return os.environ.get("PRE_COMMIT") == "1"


def require(module: str, feature: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtraError`.

    ``feature`` says what needed it (``"listing MCP tools over stdio"``); the message
    names the module and the extra to install. Any ``ImportError`` counts as missing
    (a module set to ``None`` in ``sys.modules`` raises one too).
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        hint = install_hint(module) or f"pip install {module.split('.')[0]}"
        todo = IN_PRE_COMMIT if in_pre_commit() else f"install it with: {hint}"
        raise MissingExtraError(
            f"{feature} needs the optional dependency {module.split('.')[0]!r}, which is not "
            f"installed ({exc}); {todo}"
        ) from None
