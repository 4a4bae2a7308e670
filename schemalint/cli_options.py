"""Option types shared by several commands, so that each reads and helps the same way."""

from __future__ import annotations

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
