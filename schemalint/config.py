"""Project configuration: ``[tool.schemalint]`` in ``pyproject.toml`` or ``schemalint.toml``.

Found by walking up from the working directory; ``--config PATH`` overrides.
Raises :class:`ConfigError` (exit 2) for unreadable files and bad values, naming
the file and the key.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CONFIG_FILES = ("schemalint.toml", "pyproject.toml")


class ConfigError(Exception):
    """A configuration file that cannot be read or holds a bad value (exit code 2)."""


@dataclass
class Config:
    """Settings from the configuration file; ``path`` is ``None`` when none was found.

    ``root`` is the directory of the configuration file: relative ``sources`` and
    ``exclude`` entries are taken relative to it.
    """

    path: Path | None = None
    root: Path = field(default_factory=Path.cwd)
    sources: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    target: list[str] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)


def _load_toml(path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def find_config(start: Path | None = None) -> Path | None:
    """The nearest ``schemalint.toml``, or ``pyproject.toml`` with a ``[tool.schemalint]`` table."""
    here = (start or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        for name in CONFIG_FILES:
            candidate = directory / name
            if not candidate.is_file():
                continue
            if name == "schemalint.toml":
                return candidate
            if "schemalint" in _load_toml(candidate).get("tool", {}):
                return candidate
    return None


def _str_list(table: dict[str, Any], key: str, path: Path) -> list[str]:
    value = table.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: `{key}` must be a list of strings, got {value!r}")
    return list(value)


def load_config(explicit: Path | None = None) -> Config:
    """Read the configuration (``explicit`` path or the nearest one); defaults when none."""
    path = explicit or find_config()
    if path is None:
        return Config()
    if not path.is_file():
        raise ConfigError(f"{path}: no such configuration file")
    data = _load_toml(path)
    table = data if path.name == "schemalint.toml" else data.get("tool", {}).get("schemalint", {})
    if path.name == "schemalint.toml" and "tool" in table and "schemalint" in table["tool"]:
        table = table["tool"]["schemalint"]
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.schemalint] must be a table")
    return Config(
        path=path,
        root=path.parent,
        sources=_str_list(table, "sources", path),
        exclude=_str_list(table, "exclude", path),
        target=_str_list(table, "target", path),
        raw=table,
    )


def resolve_sources(config: Config) -> list[str]:
    """Configured sources as paths relative to the working directory when possible."""
    import os

    out = []
    for source in config.sources:
        candidate = config.root / source
        if candidate.exists():
            out.append(os.path.relpath(candidate))
        else:
            out.append(source)
    return out
