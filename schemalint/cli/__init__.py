"""Command-line interface (typer): the ``schemalint`` group and :func:`main`, the console script.

One module per command (``check``, ``diff``, ``probe``, ``replay``, ``rules``/``rule``, ``show``,
``snapshot``; ``server`` and ``mcp`` share ``cli/editor.py``), named in :data:`COMMANDS` and
imported only when run; what they share is in :mod:`schemalint.cli._common`. Each command
parses its options, calls :mod:`schemalint.api` or :mod:`schemalint.api_commands`, and hands
the result to a reporter of :mod:`schemalint.report`.

Exit codes (docs/ci.md, "Exit codes"): 0 nothing at or above ``--fail-on``; 1 diagnostics at or
above it; 2 usage or configuration error, missing path, failed import.
Heavy modules are imported inside the commands so that start-up stays fast.
"""

import contextlib
import errno
import importlib
import os
import sys
from typing import Annotated

import typer

from schemalint import __version__
from schemalint.cli._common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, fail

__all__ = ["COMMANDS", "EXIT_FINDINGS", "EXIT_OK", "EXIT_USAGE", "app", "fail", "main"]

COMMANDS: dict[str, str] = {
    "check": "schemalint.cli.check:check",
    "diff": "schemalint.cli.diff:diff",
    "probe": "schemalint.cli.probe:probe",
    "replay": "schemalint.cli.replay:replay",
    "rules": "schemalint.cli.rules:rules_command",
    "rule": "schemalint.cli.rules:rule_command",
    "show": "schemalint.cli.show:show",
    "snapshot": "schemalint.cli.snapshot:snapshot",
    "server": "schemalint.cli.editor:server",
    "mcp": "schemalint.cli.editor:mcp",
}
"""Command name -> ``module:function``, in the order help lists them. :func:`main` imports the
module of the command the command line names and no other (start-up time is a budget)."""

app = typer.Typer(
    name="schemalint",
    help=(
        "Lint and diff the contracts of LLM tools.\n\n"
        "schemalint loads every tool definition it finds (OpenAI, Anthropic, Gemini, MCP, "
        "contract manifests, Python models), checks the advertised JSON schema against the "
        "runtime validator and provider limits, and diffs advertised schemas between revisions.\n\n"
        "Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage/config error."
    ),
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion (README, "Shell completion")
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"schemalint {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Lint and diff the contracts of LLM tools."""


def _invoked_command(args: list[str]) -> str | None:
    """The subcommand name in ``args`` (the words after the program name): the first word that is
    not an option, since the group's own options (--version, --help) take no value; else ``None``."""
    for arg in args:
        if arg == "--":
            return None
        if not arg.startswith("-"):
            return arg
    return None


def _tolerate_lone_surrogates() -> None:
    """Write a string that UTF-8 cannot encode (a lone surrogate such as ``"\\ud800"`` read from
    a ``\\u`` escape in a tool file) as its ``\\ud800`` escape instead of failing with
    ``UnicodeEncodeError``: in JSON and SARIF reports it stays a valid JSON escape (the output is
    valid UTF-8 JSON), in text it is readable. Other characters are written as before."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a closed or replaced stream
                reconfigure(errors="backslashreplace")


def _register(names: list[str]) -> None:
    """Add the commands ``names`` (keys of :data:`COMMANDS`) to :data:`app`, importing their modules."""
    for name in names:
        module, _, func = COMMANDS[name].partition(":")
        command = getattr(importlib.import_module(module), func)
        app.command(name, help=verbatim_examples(command.__doc__))(command)


def verbatim_examples(doc: str | None) -> str | None:
    """``doc`` (a command's docstring) with its indented example lines kept as written.

    click re-wraps every paragraph of a help text to the terminal's width, so a long example
    was broken mid-quote and could not be copied. A paragraph whose lines are all indented (an
    example, a list of examples) is marked with click's no-rewrap marker (a ``\\b`` line,
    click's "Preventing Rewrapping"), and examples separated by blank lines are joined into one
    such paragraph. ``None`` stays ``None``.
    """
    if not doc:
        return doc
    import inspect

    paragraphs = inspect.cleandoc(doc).split("\n\n")
    out: list[str] = []
    for para in paragraphs:
        lines = para.split("\n")
        if all(line.startswith("  ") for line in lines):
            if out and out[-1].startswith("\b\n"):
                out[-1] += "\n" + para
            else:
                out.append("\b\n" + para)
        else:
            out.append(para)
    return "\n\n".join(out)


_WITH_PROGRESS = ("check", "probe", "snapshot", "diff", "replay")
"""The commands that can run long enough to show progress (schemalint.progress)."""


def _take_verbose(argv: list[str]) -> None:
    """``--verbose`` anywhere before ``--`` (any command): removed from ``argv`` and turned into
    ``SCHEMALINT_VERBOSE=1``, read by the loaders that report their phases on stderr (the Node
    worker's start, module resolution, import and listing: docs/typescript.md)."""
    for i, arg in enumerate(argv[1:], 1):
        if arg == "--":
            return
        if arg == "--verbose":
            del argv[i]
            os.environ["SCHEMALINT_VERBOSE"] = "1"
            return


def _plain_check(args: list[str]) -> tuple[list[str] | None, bool] | None:
    """``(sources, scan)`` when ``args`` (the words after the program name) are ``check`` with
    nothing but file names and ``--scan`` (the pre-commit hooks' ``check --scan -- FILE...`` and
    ``check``): every word before ``--`` is ``--scan`` or a name not starting with ``-``, every word
    after it a name. ``sources`` is ``None`` when no name is given, as typer passes it. Anything
    else (another option, ``-`` before ``--``, ``--help``, a shell-completion request) is ``None``:
    typer parses it."""
    if not args or args[0] != "check" or any(key.endswith("_COMPLETE") for key in os.environ):
        return None
    sources: list[str] = []
    scan = False
    for i, arg in enumerate(args[1:], 1):
        if arg == "--":
            sources.extend(args[i + 1:])
            break
        if arg == "--scan":
            scan = True
        elif arg.startswith("-"):
            return None
        else:
            sources.append(arg)
    return sources or None, scan


def _run_plain_check(sources: list[str] | None, scan: bool) -> None:
    """Run ``check`` on the command line :func:`_plain_check` read, without typer's parsing, and
    leave as typer's standalone mode does (always ``SystemExit``).

    Typer builds a converter for each of ``check``'s 26 parameters (pydantic's ``TypeAdapter``,
    importing pydantic) before it calls the command: more than half the CPU time of the
    pre-commit hook on one small file. Here the parameters typer would pass as their defaults
    are left to their defaults. Exits: 0 when ``check`` returns; a ``typer.Exit``'s code (130 for
    Ctrl-C); 1 with ``Aborted!`` for ``typer.Abort`` and end of input; 1 when a pipe being
    written was closed (what is left to write goes to ``/dev/null``, as click keeps a closed
    pipe from failing again at exit)."""
    from schemalint.cli.check import check

    try:
        try:
            check(sources=sources, scan=scan)
        except EOFError as exc:
            typer.echo(err=True)
            raise typer.Abort() from exc
        except KeyboardInterrupt as exc:
            raise typer.Exit(130) from exc
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            _silence_broken_pipes()
            sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("Aborted!", err=True)
        sys.exit(1)
    sys.exit(0)


def _silence_broken_pipes() -> None:
    """Point standard output and error, whichever of them cannot be flushed (a closed pipe), at
    ``/dev/null``, so that flushing them again at exit does not fail."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def main() -> None:
    """Console-script entry point.

    Typer turns every registered command into a click command (signature, type hints, one
    parameter object per option) before it parses anything; one process runs one command, so
    when the command line names one, only that command's module is imported and only that
    command is built (start-up time is a budget). Anything else (no command, --help,
    --version, a misspelt name) registers all of them, so that help and "No such command" list
    every command. :data:`app`'s registered commands are as before when this returns. Raises
    ``SystemExit`` like any typer app; an ``OSError`` no command handled (the output cannot be
    written) ends the process with exit 2.
    """
    _take_verbose(sys.argv)
    name = _invoked_command(sys.argv[1:])
    registered = list(app.registered_commands)
    plain = _plain_check(sys.argv[1:])
    if plain is None:
        _register([name] if name in COMMANDS else list(COMMANDS))
    _tolerate_lone_surrogates()
    from schemalint.bridge import reaper

    reaper.enable()  # workers and servers started by this run are reaped with their descendants
    if name in _WITH_PROGRESS:
        from schemalint import progress

        progress.install()  # a terminal only, unless SCHEMALINT_PROGRESS=1 (schemalint.progress)
    try:
        if plain is None:
            app()
        else:
            _run_plain_check(*plain)
    except OSError as exc:  # e.g. the output cannot be written (a full disk): exit 2, not a traceback
        from schemalint.textsafe import visible_lines

        sys.stderr.write(f"schemalint: error: {visible_lines(str(exc))}\n")
        sys.stderr.flush()
        os._exit(2)  # not SystemExit: the interpreter would fail again flushing the same stdout
    except Exception as exc:  # a plugin whose rules cannot be used (schemalint.rules.plugins): exit 2
        from schemalint.rules.plugins import PluginError

        if not isinstance(exc, PluginError):
            raise
        sys.stderr.write(f"schemalint: error: {exc}\n")
        sys.stderr.flush()
        os._exit(2)
    finally:
        if name in _WITH_PROGRESS:
            from schemalint import progress

            progress.stop()
        app.registered_commands = registered
        if reaper.is_subreaper():  # what imported code or a server left behind, detached or not
            reaper.kill_descendants()
