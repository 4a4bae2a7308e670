"""Option types shared by several commands, so that each reads and helps the same way."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

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


def split_csv(values: list[str] | None) -> list[str]:
    """Repeated, comma-separated option values as one list (``["SD1,SD2", "SD3"]`` -> three)."""
    return [x.strip() for v in values or [] for x in v.split(",") if x.strip()]
