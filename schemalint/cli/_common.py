"""What every command shares, written once: option types, ``--format`` choices, ``--fail-on``
levels, the ``schemalint: error:`` exit, configuration loading, the call of a command's API
function (:func:`call_api`), the fast exit.

Nothing heavy is imported here (start-up time is a budget): typer, and the standard library.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import typer

if TYPE_CHECKING:
    from schemalint.commands.reading import McpServers
    from schemalint.config import Config

T = TypeVar("T")

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

RulesFormat = Literal["text", "markdown", "json"]
"""``rules --format``: a table, the rules/README.md catalog, or JSON. The report formats of
check, diff, show and probe are those of :mod:`schemalint.report`."""


def format_option(help: str) -> Any:
    """The ``--format``/``-f`` option. Annotate it with a ``Literal`` of the format names
    (:data:`schemalint.report.CheckFormat` ...): typer then validates the value (exit 2 on another
    one, naming the choices) and shows them in help as ``<text|json|...>``."""
    return typer.Option("--format", "-f", help=help)


MODULE_SOURCES_HELP = ("module:attr (Python) or file.ts:EXPORT (TypeScript/JavaScript: .ts .mts .cts .js .mjs "
                       ".cjs, a glob of them, no :EXPORT for every export; needs Node, and for TypeScript the "
                       "project's tsx or Node 22.6+)")
"""How every command's help names the module sources (docs/typescript.md, docs/pydantic-and-probes.md)."""

SOURCES_HELP = f"Files, directories, globs, or {MODULE_SOURCES_HELP}."
"""The help of the ``SOURCES...`` argument of check, show, probe and snapshot (what a source can be)."""


def sources_argument(help: str) -> Any:
    """The optional ``SOURCES...`` argument (default: ``sources`` from the configuration)."""
    return typer.Argument(help=help, show_default=False)


ExcludeOption = Annotated[
    list[str] | None, typer.Option("--exclude", help="Glob of paths to skip (repeatable).")
]
PythonPathOption = Annotated[
    list[str] | None,
    typer.Option("--python-path", help="Extra import root for module:attr sources (repeatable; default: "
                 "`python-path` from [tool.schemalint])."),
]
ConfigOption = Annotated[
    Path | None,
    typer.Option("--config", help="Configuration file (default: nearest schemalint.toml or pyproject.toml "
                 "with [tool.schemalint])."),
]
BaselineOption = Annotated[
    Path | None, typer.Option("--baseline", help="Hide the findings recorded in this baseline file "
                              "(default: `baseline` from the configuration); stale entries are reported.")
]
NoBaselineOption = Annotated[
    bool, typer.Option("--no-baseline", help="Ignore the configured baseline and report every finding.")
]
WriteBaselineOption = Annotated[
    Path | None, typer.Option("--write-baseline", help="Record today's findings in this file "
                              "(JSON, sorted) and exit 0; use it with --baseline in CI.")
]
SelectOption = Annotated[
    list[str] | None, typer.Option("--select", help="Only these rule codes, names or code prefixes "
                                   "(comma-separated; replaces the configured select).")
]
ExtendSelectOption = Annotated[
    list[str] | None, typer.Option("--extend-select", help="Also run these rules (adds to select).")
]
IgnoreOption = Annotated[
    list[str] | None, typer.Option("--ignore", help="Skip these rule codes, names or code prefixes "
                                   "(adds to the configured ignore).")
]

MCP_STDIO_HELP = ("Start this MCP server command (quoted, e.g. \"python server.py\") and read the tools it lists "
                  "over stdio (repeatable; advertised side only; needs schemalint[mcp]). Default: `mcp-stdio` "
                  "from [tool.schemalint].")
MCP_URL_HELP = ("Read the tools the MCP server at this http(s) URL lists over Streamable HTTP (repeatable; "
                "advertised side only; needs schemalint[mcp]). Default: `mcp-url` from [tool.schemalint].")


def mcp_stdio_option(help: str = MCP_STDIO_HELP) -> Any:
    """The repeatable ``--mcp-stdio CMD`` option (diff words its help for the NEW side)."""
    return typer.Option("--mcp-stdio", help=help, show_default=False)


def mcp_url_option(help: str = MCP_URL_HELP) -> Any:
    """The repeatable ``--mcp-url URL`` option (diff words its help for the NEW side)."""
    return typer.Option("--mcp-url", help=help, show_default=False)


McpStdioOption = Annotated[list[str] | None, mcp_stdio_option()]
McpUrlOption = Annotated[list[str] | None, mcp_url_option()]
McpHeaderOption = Annotated[
    list[str] | None,
    typer.Option("--mcp-header", help="HTTP header sent to every --mcp-url server, as 'Name: value' (repeatable), "
                 "e.g. \"Authorization: Bearer $TOKEN\". Values are never printed.", show_default=False),
]


def mcp_headers(lines: Sequence[str] | None) -> dict[str, str] | None:
    """The ``--mcp-header 'Name: value'`` options as a mapping
    (:func:`schemalint.loaders.python.mcp_http.parse_headers`; ``None``: none given). Exit 2 for a
    bad header."""
    if not lines:
        return None
    from schemalint.loaders.python.mcp_http import parse_headers

    try:
        return parse_headers(lines)
    except ValueError as exc:
        raise fail(str(exc)) from None


def read_what(sources: Sequence[str] | None, mcp_stdio: Sequence[str] | None, mcp_url: Sequence[str] | None,
              mcp_header: Sequence[str] | None, cfg: Config) -> tuple[list[str], McpServers]:
    """The sources and MCP servers ``check`` reads (:func:`schemalint.commands.reading.what_to_read`:
    what the command line names replaces the configuration's ``sources``, ``mcp-stdio`` and
    ``mcp-url``). Exit 2 when nothing at all is to be read, for a bad header, and for a header
    with no URL to send it to."""
    from schemalint.commands.reading import what_to_read

    headers = mcp_headers(mcp_header)
    return call_api(what_to_read, sources or (), mcp_stdio or (), mcp_url or (), headers, cfg)


def call_api(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)``; exit 2 with the message of an error the user can act on (a missing
    source, a bad configuration, selector, target, dialect, baseline or request, a diff or snapshot
    that cannot be made, an output the write policy refuses). Anything else propagates."""
    try:
        return function(*args)
    except Exception as exc:
        if isinstance(exc, _user_errors()):
            raise fail(str(exc)) from None
        raise


def _user_errors() -> tuple[type[Exception], ...]:
    """The errors :func:`call_api` prints (imported only when one was raised)."""
    from schemalint.config import ConfigError
    from schemalint.diff.errors import DiffError
    from schemalint.engine.baseline import BaselineError
    from schemalint.engine.request import RequestError
    from schemalint.errors import SourceError
    from schemalint.safe_write import WriteRefused
    from schemalint.targets import TargetError

    return (SourceError, ConfigError, BaselineError, TargetError, RequestError, WriteRefused, DiffError)


def fail(message: str) -> typer.Exit:
    """Print ``schemalint: error: message`` to stderr and return the exit-2 exception to raise."""
    from schemalint.textsafe import visible_lines

    typer.echo(f"schemalint: error: {visible_lines(message)}", err=True)
    return typer.Exit(EXIT_USAGE)


def config_or_fail(path: Path | None) -> Config:
    """The configuration (:func:`schemalint.config.load_config`); exit 2 on a configuration error."""
    from schemalint.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        raise fail(str(exc)) from None


def split_csv(values: list[str] | None) -> list[str]:
    """Repeated, comma-separated option values as one list (``["SD1,SD2", "SD3"]`` -> three)."""
    return [x.strip() for v in values or [] for x in v.split(",") if x.strip()]


def finish(code: int) -> None:
    """Leave with exit ``code``: :func:`exit_now`, then ``typer.Exit`` for a non-zero code."""
    exit_now(code)
    if code:
        raise typer.Exit(code)


def exit_now(code: int) -> None:
    """End the process with ``code`` at once, when it is the ``schemalint`` program itself.

    Freeing a catalog's worth of parsed tools (two for diff) object by object takes about a
    tenth of a second per 10,000 tools, and the interpreter would do it on the way out for
    nothing: flush the output, run the ``atexit`` handlers and leave with ``os._exit``.
    Inside another program (tests, an embedding caller) this returns and the caller goes on
    as usual. Raises ``OSError`` when the output cannot be flushed (the CLI reports it, exit 2).
    """
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    script = os.path.basename(getattr(main, "__file__", None) or "")
    if getattr(spec, "name", None) != "schemalint.__main__" and script not in ("schemalint", "schemalint.exe"):
        return  # ``python -m schemalint`` or the console script are the program; anything else is not
    import atexit

    atexit._run_exitfuncs()  # what registered to run at exit still runs (logging, multiprocessing ...)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
