"""What every command shares, written once: option types, ``--format`` choices, ``--fail-on``
levels, the ``schemalint: error:`` exit, configuration loading, "no sources", the fast exit.

Nothing heavy is imported here (start-up time is a budget): typer, and the standard library.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
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


def sources_or_fail(sources: Sequence[str] | None, cfg: Config) -> list[str]:
    """``sources`` as given, else ``sources`` from the configuration; exit 2 when neither names any."""
    from schemalint.config import resolve_sources

    srcs = list(sources or []) or resolve_sources(cfg)
    if not srcs:
        raise no_sources()
    return srcs


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
