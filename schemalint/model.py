"""Core value types shared by loaders, rules, reporters and the diff engine.

Everything here is a plain frozen dataclass so that tools and diagnostics can be
hashed, compared and passed between processes.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


class Severity(str, enum.Enum):
    """Diagnostic severity, ordered ``info < warning < error``."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        """0 for info, 1 for warning, 2 for error."""
        return _RANK[self]

    @classmethod
    def parse(cls, text: str) -> Severity:
        """Return the severity named ``text`` (case-insensitive); raise ``ValueError`` otherwise."""
        try:
            return cls(text.lower())
        except ValueError:
            raise ValueError(f"unknown severity {text!r} (expected error, warning or info)") from None


_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


@dataclass(frozen=True)
class Origin:
    """Where a tool definition was found.

    ``file`` is the path as given on the command line (or ``module:attr`` for Python
    sources); ``pointer`` is the RFC 6901 JSON pointer of the tool object inside that
    document (``""`` for a whole-file tool); ``format`` names the source format
    (``openai-chat``, ``openai-responses``, ``anthropic``, ``gemini``, ``mcp``,
    ``manifest``, ``bfcl``, ``docker-arguments``, ``pydantic`` ...); ``line`` is the
    1-based line for JSONL documents (each line is its own JSON document), else ``None``.
    """

    file: str
    pointer: str
    format: str
    line: int | None = None


@dataclass(frozen=True)
class Contract:
    """What the tool accepts at run time.

    ``input``: JSON schema of the runtime validator in input (validation) mode, or
    ``None`` when unknown. ``output``: the same in output (serialization) mode.
    ``validate``: a callable taking the call's arguments (a dict) that raises any
    exception on refusal; ``None`` when the runtime is not callable (e.g. a manifest).
    ``refused_when_omitted``: instance paths (JSON pointers into the arguments) whose
    omission the runtime is known to refuse, e.g. from probes run by an exporter.
    """

    input: Any = None
    output: Any = None
    validate: Callable[[Any], Any] | None = field(default=None, compare=False, hash=False)
    refused_when_omitted: tuple[str, ...] = ()


FIELDS_AT: Mapping[str, str] = {"openai-chat": "/function"}
"""Where a tool's own fields (``name``, ``description``, the schema, ``strict``) live inside the
tool object, per :attr:`Origin.format`: a pointer relative to the tool object (OpenAI Chat
Completions wraps them in ``{"type": "function", "function": {...}}``). Formats not listed keep
them at the top (``""``). Read it through :attr:`Tool.fields_at`, :attr:`Tool.fields` and
:meth:`Tool.field_pointer`."""


@dataclass(frozen=True)
class Tool:
    """One tool definition as the model sees it, plus its runtime contract when known.

    ``advertised`` is the input schema exactly as shown to the model (key order kept);
    it may be any JSON value, because broken definitions are still loaded so that a
    rule can report them. ``schema_path`` is the JSON pointer of that schema relative
    to the tool object (``/parameters``, ``/function/parameters``, ``/inputSchema`` ...;
    ``None`` when the tool has no schema), so ``origin.pointer + schema_path`` locates
    the schema in the file.
    ``raw`` is the tool object itself (for rules that look at other fields, e.g.
    ``strict``, ``annotations``); ``output_schema`` is an advertised output schema
    (MCP ``outputSchema``) when present.
    """

    name: str
    description: str | None
    advertised: Any
    origin: Origin
    schema_path: str | None = None
    runtime: Contract | None = None
    output_schema: Any = None
    raw: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)

    @property
    def schema_pointer(self) -> str:
        """JSON pointer of the advertised schema inside the source file."""
        return self.origin.pointer + (self.schema_path or "")

    def pointer_in_file(self, schema_pointer: str) -> str:
        """Translate a pointer relative to the advertised schema into a pointer into the file."""
        return self.schema_pointer + schema_pointer

    @property
    def fields_at(self) -> str:
        """Pointer, relative to the tool object, of the object holding the tool's fields
        (``"/function"`` for OpenAI Chat tools, else ``""``; :data:`FIELDS_AT`)."""
        return FIELDS_AT.get(self.origin.format, "")

    @property
    def fields(self) -> Mapping[str, Any]:
        """The object holding the tool's fields (``raw["function"]`` for OpenAI Chat tools, else
        ``raw``); ``raw`` itself when that object is missing or not a mapping, ``{}`` without raw."""
        raw = self.raw if isinstance(self.raw, Mapping) else {}
        at = self.fields_at
        if at:
            inner = raw.get(at[1:])
            if isinstance(inner, Mapping):
                return inner
        return raw

    def field_pointer(self, *tokens: str) -> str:
        """File pointer of a field of the tool, e.g. ``tool.field_pointer("name")``
        (``origin.pointer`` + :attr:`fields_at` + the escaped ``tokens``)."""
        return join_pointer(self.origin.pointer + self.fields_at, *tokens)

    @property
    def strict(self) -> bool:
        """True when the definition opts into provider strict mode (``"strict": true``)."""
        raw = self.raw or {}
        if raw.get("strict") is True:
            return True
        fn = raw.get("function")
        return isinstance(fn, Mapping) and fn.get("strict") is True


@dataclass(frozen=True)
class Diagnostic:
    """One finding of one rule.

    ``pointer`` is an RFC 6901 pointer into the source *file* (not the schema);
    ``instance_path`` is a pointer into the call's arguments the finding concerns
    (``""`` for the whole call, ``None`` when it does not concern an instance).
    ``line``/``column`` are 1-based and filled in by the reporter pipeline.
    """

    code: str
    name: str
    severity: Severity
    tool: str | None
    file: str
    pointer: str
    message: str
    instance_path: str | None = None
    hint: str | None = None
    line: int | None = None
    column: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The diagnostic as a JSON-ready dict (the report shape in DESIGN.md)."""
        return {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "tool": self.tool,
            "file": self.file,
            "pointer": self.pointer,
            "line": self.line,
            "column": self.column,
            "instance_path": self.instance_path,
            "message": self.message,
            "hint": self.hint,
        }


def escape_token(token: str | int) -> str:
    """Escape one reference token for a JSON pointer (RFC 6901 section 3)."""
    text = str(token)
    if "~" not in text and "/" not in text:
        return text
    return text.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    """Reverse :func:`escape_token` (RFC 6901 section 4)."""
    return token.replace("~1", "/").replace("~0", "~")


def join_pointer(base: str, *tokens: str | int) -> str:
    """Append escaped ``tokens`` to the JSON pointer ``base``."""
    return base + "".join("/" + escape_token(t) for t in tokens)


def split_pointer(pointer: str) -> list[str]:
    """Split an RFC 6901 pointer (``""`` or ``/a/b``; a leading ``#`` is accepted) into tokens.

    Raises ``ValueError`` for a non-empty pointer that does not start with ``/``.
    """
    if pointer.startswith("#"):
        pointer = pointer[1:]
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [unescape_token(t) for t in pointer[1:].split("/")]
