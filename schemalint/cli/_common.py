"""What every command shares, written once: option types, ``--format`` choices, ``--fail-on``
levels, the ``schemalint: error:`` exit, configuration loading, "no sources", the fast exit.

Nothing heavy is imported here (start-up time is a budget): typer, and the standard library.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.model import Diagnostic

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


@dataclass
class McpServers:
    """The MCP servers a command reads besides its sources: ``stdio`` commands (run in ``cwd``,
    ``None``: the working directory), Streamable HTTP ``urls`` and the ``headers`` sent to them."""

    stdio: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None

    def __bool__(self) -> bool:
        return bool(self.stdio or self.urls)

    def names(self) -> list[str]:
        """The commands and URLs as given (a URL without its userinfo)."""
        from schemalint.loaders.python.mcp_http import shown_url

        return [*self.stdio, *(shown_url(u) for u in self.urls)]

    def labels(self) -> list[str]:
        """How reports name the servers: ``mcp-stdio 'CMD'``, ``mcp-url 'URL'`` (userinfo removed)."""
        from schemalint.loaders.python.mcp_http import shown_url

        return [*(f"mcp-stdio {c!r}" for c in self.stdio), *(f"mcp-url {shown_url(u)!r}" for u in self.urls)]

    def options(self) -> list[str]:
        """The servers as command-line options (for a command a message suggests; headers and a URL's
        userinfo left out: they may be secrets)."""
        import shlex

        from schemalint.loaders.python.mcp_http import shown_url

        return [*(f"--mcp-stdio {shlex.quote(c)}" for c in self.stdio),
                *(f"--mcp-url {shlex.quote(shown_url(u))}" for u in self.urls)]

    def load_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :func:`schemalint.api.load` / :func:`schemalint.api.check` naming them."""
        return {"mcp_stdio": self.stdio, "mcp_url": self.urls, "mcp_headers": self.headers, "mcp_cwd": self.cwd}


def read_what(sources: Sequence[str] | None, mcp_stdio: Sequence[str] | None, mcp_url: Sequence[str] | None,
              mcp_header: Sequence[str] | None, cfg: Config) -> tuple[list[str], McpServers]:
    """The sources and MCP servers a command reads. What the command line names (paths,
    ``module:attr``, ``--mcp-stdio``, ``--mcp-url``) replaces all of ``sources``, ``mcp-stdio``
    and ``mcp-url`` of the configuration; with none named, those three apply. Exit 2 when
    nothing at all is to be read, and as :func:`mcp_servers` does."""
    from schemalint.config import resolve_sources

    named = bool(sources or mcp_stdio or mcp_url)
    srcs = list(sources or []) if named else resolve_sources(cfg)
    servers = mcp_servers(mcp_stdio, mcp_url, mcp_header, cfg, configured=not named)
    if not srcs and not servers:
        raise no_sources()
    return srcs, servers


def mcp_servers(mcp_stdio: Sequence[str] | None, mcp_url: Sequence[str] | None, mcp_header: Sequence[str] | None,
                cfg: Config, *, configured: bool) -> McpServers:
    """The ``--mcp-stdio``/``--mcp-url`` servers, or (``configured``) the configuration's ``mcp-stdio``
    and ``mcp-url`` (whose commands run in the configuration's root), with the ``--mcp-header``
    values parsed (:func:`schemalint.loaders.python.mcp_http.parse_headers`). Exit 2 for a bad
    header, and for a header with no URL to send it to."""
    if configured:
        servers = McpServers(list(cfg.mcp_stdio), list(cfg.mcp_url), cwd=str(cfg.root) if cfg.mcp_stdio else None)
    else:
        servers = McpServers(list(mcp_stdio or []), list(mcp_url or []))
    if mcp_header:
        from schemalint.loaders.python.mcp_http import parse_headers

        try:
            servers.headers = parse_headers(mcp_header)
        except ValueError as exc:
            raise fail(str(exc)) from None
        if not servers.urls:
            raise fail("--mcp-header is sent to --mcp-url servers, and no --mcp-url is given or configured")
    return servers


def fail(message: str) -> typer.Exit:
    """Print ``schemalint: error: message`` to stderr and return the exit-2 exception to raise."""
    from schemalint.textsafe import visible_lines

    typer.echo(f"schemalint: error: {visible_lines(message)}", err=True)
    return typer.Exit(EXIT_USAGE)


def check_level(value: str | None, levels: Sequence[str]) -> None:
    """Exit 2 unless ``value`` (a ``--fail-on`` value, ``None`` when not given) is one of ``levels``:
    :data:`schemalint.config.FAIL_LEVELS` (check, probe) or :data:`schemalint.diff.result.FAIL_LEVELS`."""
    if value is not None and value not in levels:
        raise fail(f"unknown --fail-on {value!r}; choose from {', '.join(levels)}")


def config_or_fail(path: Path | None) -> Config:
    """The configuration (:func:`schemalint.config.load_config`); exit 2 on a configuration error."""
    from schemalint.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        raise fail(str(exc)) from None


def run_reads(cfg: Config, paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The files a run reads that an output must never replace: those of ``paths`` (sources,
    ``--previous``, ``--baseline``, logs) that are files, and the configuration file."""
    reads = [os.fspath(p) for p in paths if os.path.isfile(p)]
    if cfg.path is not None:
        reads.append(str(cfg.path))
    return reads


def _recogniser(what: str) -> Any:
    """How a previous output of the kind ``what`` is recognised by its first bytes."""
    if what == "baseline":
        from schemalint.engine.baseline import is_baseline_text

        return is_baseline_text
    from schemalint.rules.facts import is_summary_text

    return is_summary_text


def guard_output(target: Path, what: str, cfg: Config, reads: Sequence[str]) -> None:
    """Exit 2 (nothing written) when the policy of :mod:`schemalint.safe_write` refuses ``target``
    as the ``what`` (``"baseline"``, ``"shard summary"``) of a run reading ``reads``; the project
    is :attr:`schemalint.config.Config.project`. Commands call it before the run (fail fast)."""
    from schemalint.safe_write import WriteRefused, check_output

    try:
        check_output(target, what=what, is_ours=_recogniser(what), reads=reads, project=cfg.project)
    except WriteRefused as exc:
        raise fail(str(exc)) from None


def write_user_output(target: Path, text: str, what: str, cfg: Config, reads: Sequence[str]) -> None:
    """Write ``text`` to ``target`` through :func:`schemalint.safe_write.write_output` (checked
    again at write time, then atomically); exit 2 when refused or the write fails."""
    from schemalint.safe_write import WriteRefused, write_output

    try:
        write_output(target, text, what=what, is_ours=_recogniser(what), reads=reads, project=cfg.project)
    except WriteRefused as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"{target}: cannot write the {what}: {exc.strerror or exc}") from None


def no_sources() -> typer.Exit:
    """The "no sources" error (printed) as the exit-2 exception to raise."""
    from schemalint.api_commands import NO_SOURCES

    return fail(NO_SOURCES)


def split_csv(values: list[str] | None) -> list[str]:
    """Repeated, comma-separated option values as one list (``["SD1,SD2", "SD3"]`` -> three)."""
    return [x.strip() for v in values or [] for x in v.split(",") if x.strip()]


def fails_at(diagnostics: Iterable[Diagnostic], level: str) -> bool:
    """True when a diagnostic is at least as severe as ``level`` (``never``: never)."""
    if level == "never":
        return False
    from schemalint.model import Severity

    rank = Severity.parse(level).rank
    return any(d.severity.rank >= rank for d in diagnostics)


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
