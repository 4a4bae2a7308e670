"""Project configuration: ``[tool.schemalint]`` in ``pyproject.toml`` or ``schemalint.toml``.

Found by walking up from the working directory (``schemalint.toml`` wins over a
``pyproject.toml`` in the same directory; a ``pyproject.toml`` counts only when it has a
``[tool.schemalint]`` table); ``--config PATH`` overrides. The walk stops at the project root
(docs/security.md): the root of the git work tree holding the working directory (the first
directory with a ``.git`` entry) is the last directory looked at, so a configuration above the
repository is never adopted. Outside any git work tree the walk goes on up, and the first
configuration found is the project's; when that one lies above the working directory and names
code to run (``module:attr`` or TypeScript sources, ``mcp-stdio`` commands), it is refused
(:class:`ConfigError`) unless given with ``--config``: schemalint runs code named by a
configuration only when the configuration lies inside the project the user is working in. Every key is validated:
an unknown key, an unknown rule code, name or prefix, or a bad value raises
:class:`ConfigError` naming the file and the key (the CLI exits 2).

The keys (documented for users in ``docs/configuration.md``)::

    [tool.schemalint]
    sources = ["tools/", "app.tools:TOOLS"]   # default sources of `schemalint check`
    exclude = ["tests/fixtures"]              # fnmatch patterns of paths to skip
    target = ["openai-strict"]                # provider profiles
    dialect = "draft-07"                      # force a dialect (default: read $schema)
    python-path = ["src"]                     # import roots for module:attr sources
    fail-on = "error"                         # error | warning | info | never
    baseline = "schemalint-baseline.json"     # hide the findings recorded there
    mcp-stdio = ["python server.py"]          # MCP servers to start and list over stdio (run in the root)
    mcp-url = ["http://127.0.0.1:8000/mcp"]   # MCP servers to list over Streamable HTTP
    select = ["ALL"]                          # codes, names or code prefixes
    extend-select = []
    ignore = ["SL2"]

    [tool.schemalint.severity]                # severity per rule (code, name or prefix)
    SL201 = "warning"

    [tool.schemalint.options.SL301]           # rule options, by rule code or name
    max_tools = 200

    [[tool.schemalint.per-file-ignores]]      # suppressions: a reason is required
    files = ["legacy/*.json"]
    rules = ["SL2"]
    reason = "frozen legacy definitions, removed in Q3"

    [[tool.schemalint.per-tool-ignores]]
    tools = ["present_answer"]
    rules = ["SL101"]
    reason = "runtime accepts a missing presentation since #412"

Rule selection (:mod:`schemalint.engine.selection`) follows ruff: for every rule, the most specific matching selector
wins (a rule name or full code beats a longer prefix beats a shorter one; ``ALL``
is the least specific); at equal specificity ``ignore`` beats ``select``.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemalint.model import Severity

if TYPE_CHECKING:
    from schemalint.rules.base import Rule
    from schemalint.rules.catalog import RuleEntry

    AnyRule = Rule | RuleEntry
    """A rule instance, or its :data:`~schemalint.rules.catalog.CATALOG` entry (code, name, targets;
    ``options`` imports the rule): selection and validation read only ``code`` and ``name``."""


CONFIG_FILES = ("schemalint.toml", "pyproject.toml")
FAIL_LEVELS = ("error", "warning", "info", "never")
ALL_SELECTOR = "ALL"


class ConfigError(Exception):
    """A configuration file that cannot be read or holds a bad value (exit code 2)."""


@dataclass(frozen=True)
class Suppression:
    """One ``per-file-ignores`` or ``per-tool-ignores`` entry.

    ``kind`` is ``"file"`` or ``"tool"``; ``index`` its position in that array (for
    messages); ``files``: path globs relative to the configuration root (empty: any
    file); ``tools``: tool-name globs (empty: any tool; a ``per-tool-ignores`` entry
    has at least one); ``rules``: selectors (codes, names, prefixes, ``ALL``);
    ``reason``: why the findings are accepted (required, non-empty).
    """

    kind: str
    index: int
    rules: tuple[str, ...]
    reason: str
    files: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``per-tool-ignores[2]``: how messages name this entry."""
        return f"per-{self.kind}-ignores[{self.index}]"


@dataclass
class Config:
    """Settings from the configuration file; ``path`` is ``None`` when none was found.

    ``root`` is the directory of the configuration file (the working directory when
    there is none): relative ``sources``, ``exclude``, ``baseline``, ``python-path`` and
    suppression ``files`` are taken relative to it, and baseline fingerprints record
    file paths relative to it. ``select`` is ``None`` when not configured (all rules).
    ``severity`` maps selectors to severities; ``options`` maps rule codes to option
    tables (already validated against each rule's declared ``options``). ``mcp_stdio`` and
    ``mcp_url``: MCP servers read with the ``sources`` (commands run in ``root``).
    """

    path: Path | None = None
    root: Path = field(default_factory=Path.cwd)
    sources: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    target: list[str] = field(default_factory=list)
    dialect: str | None = None
    python_path: list[str] = field(default_factory=list)
    fail_on: str | None = None
    baseline: str | None = None
    mcp_stdio: list[str] = field(default_factory=list)
    mcp_url: list[str] = field(default_factory=list)
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    severity: dict[str, Severity] = field(default_factory=dict)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    suppressions: list[Suppression] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)
    project: Path = field(default_factory=Path.cwd)
    """The project root (docs/security.md): the root of the git work tree holding the working
    directory when it holds :attr:`root` too, else :attr:`root`. A path the user names for output
    may not lead out of it through a symbolic link."""
    _relative_cache: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    def relative(self, path: str) -> str:
        """``path`` (as a diagnostic names it) relative to :attr:`root`, with ``/`` separators.

        ``module:attr`` Python sources and empty paths are returned unchanged. Cached per path.
        """
        cached = self._relative_cache.get(path)
        if cached is not None:
            return cached
        if not path or (":" in path and not os.path.exists(path)):
            rel = path
        else:
            try:
                rel = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root)).replace(os.sep, "/")
            except ValueError:  # another drive on Windows
                rel = path
        self._relative_cache[path] = rel
        return rel

    def import_roots(self, given: list[str] | None) -> list[str]:
        """``--python-path`` values when given, else the configured ``python-path`` (resolved)."""
        return list(given) if given else [self.resolve_path(p) for p in self.python_path]

    def resolve_path(self, value: str) -> str:
        """A configured path relative to the root, re-expressed relative to the working directory."""
        candidate = self.root / value
        try:
            return os.path.relpath(candidate)
        except ValueError:  # pragma: no cover - Windows, another drive
            return str(candidate)


# ---------------------------------------------------------------------------- reading


def _load_toml(path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    from schemalint.safe_read import MAX_CONFIG_BYTES, UnreadableFile, read_text

    try:
        return tomllib.loads(read_text(path, MAX_CONFIG_BYTES))
    except UnreadableFile as exc:  # a FIFO, a device, a huge file, invalid UTF-8 (with its place)
        raise ConfigError(f"{path}: cannot read: {exc.reason}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: arrays or tables nested too deeply") from None


def git_root(start: Path) -> Path | None:
    """The root of the git work tree holding ``start`` (an absolute, resolved directory): the
    nearest directory, ``start`` included, with a ``.git`` entry (a directory, or the file of a
    linked worktree or submodule); ``None`` outside any. Runs no git command."""
    for directory in (start, *start.parents):
        if os.path.lexists(directory / ".git"):
            return directory
    return None


def _find_config(start: Path | None) -> tuple[Path | None, dict[str, Any] | None]:
    """The nearest ``schemalint.toml``, or ``pyproject.toml`` with a ``[tool.schemalint]`` table,
    walking up from ``start`` (default: the working directory), with the parsed TOML of a
    ``pyproject.toml`` it found (``None`` for a ``schemalint.toml``, which is read later) so that
    :func:`load_config` does not parse it twice. Raises :class:`ConfigError` when a candidate
    ``pyproject.toml`` is not valid TOML."""
    here = (start or Path.cwd()).resolve()
    repository = git_root(here)
    for directory in (here, *here.parents):
        if repository is not None and directory != repository and directory in repository.parents:
            break  # above the repository root: not the project's
        for name in CONFIG_FILES:
            candidate = directory / name
            if not candidate.is_file():
                continue
            if name == "schemalint.toml":
                return candidate, None
            data = _load_toml(candidate)
            tool = data.get("tool", {})
            if isinstance(tool, dict) and "schemalint" in tool:
                return candidate, data
    return None, None


# ---------------------------------------------------------------------------- validation helpers


class _Validator:
    """Reads one ``[tool.schemalint]`` table, raising ConfigError that names file and key."""

    def __init__(self, path: Path, prefix: str) -> None:
        self.path = path
        self.prefix = prefix

    def error(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.path}: `{key}`: {message}")

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def str_list(self, table: Mapping[str, Any], name: str, key: str | None = None) -> list[str]:
        key = key or self.key(name)
        value = table.get(name, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(key, f"must be a string or a list of strings, got {value!r}")
        return list(value)

    def string(self, table: Mapping[str, Any], name: str, choices: Sequence[str] | None = None) -> str | None:
        if name not in table:
            return None
        value = table[name]
        if not isinstance(value, str):
            raise self.error(self.key(name), f"must be a string, got {value!r}")
        if choices is not None and value not in choices:
            raise self.error(self.key(name), f"must be one of {', '.join(choices)}; got {value!r}")
        return value


def _suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean `{close[0]}`?)" if close else ""


def selector_specificity(selector: str, rule: AnyRule) -> int | None:
    """How specifically ``selector`` names ``rule``: ``None`` when it does not match it.

    ``ALL`` scores 0, a code prefix its length, the rule's name or full code
    ``len(code) + 1`` (the most specific). Case-insensitive for codes.
    """
    sel = selector.strip()
    if sel.upper() == ALL_SELECTOR:
        return 0
    if sel.lower() == rule.name or sel.upper() == rule.code.upper():
        return len(rule.code) + 1
    if rule.code.upper().startswith(sel.upper()) and sel:
        return len(sel)
    return None


def validate_selector(selector: str, rules: Sequence[AnyRule]) -> str | None:
    """Return an error message when ``selector`` names no rule, else ``None``."""
    if not isinstance(selector, str) or not selector.strip():
        return f"empty rule selector {selector!r}"
    if any(selector_specificity(selector, r) is not None for r in rules):
        return None
    hint = _suggest(selector, [r.code for r in rules] + [r.name for r in rules])
    return (f"unknown rule selector {selector!r}: no rule code, name or code prefix matches it"
            f"{hint}; `schemalint rules` lists them")


def _check_selectors(v: _Validator, key: str, selectors: Sequence[str], rules: Sequence[AnyRule]) -> None:
    for sel in selectors:
        problem = validate_selector(sel, rules)
        if problem:
            raise v.error(key, problem)


def _option_type_ok(default: Any, value: Any) -> bool:
    if default is None:
        return True
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, (list, tuple)):
        if not isinstance(value, list):
            return False
        if default:
            return all(_option_type_ok(default[0], item) for item in value)
        return True
    if isinstance(default, dict):
        return isinstance(value, dict)
    return isinstance(value, type(default))


def _type_name(default: Any) -> str:
    if isinstance(default, bool):
        return "a boolean"
    if isinstance(default, int):
        return "an integer"
    if isinstance(default, float):
        return "a number"
    if isinstance(default, str):
        return "a string"
    if isinstance(default, (list, tuple)):
        return "a list" + (f" of {_type_name(default[0]).split(' ', 1)[1]}s" if default else "")
    if isinstance(default, dict):
        return "a table"
    return type(default).__name__


def _find_rule(key: str, rules: Sequence[AnyRule]) -> AnyRule | None:
    for rule in rules:
        if key.upper() == rule.code.upper() or key.lower() == rule.name:
            return rule
    return None


# ---------------------------------------------------------------------------- sections


def _dialect_table() -> dict[str, str]:
    from schemalint.schema.dialect import DIALECTS as table

    return table


TOP_LEVEL_KEYS = (
    "sources", "exclude", "target", "dialect", "python-path", "fail-on", "baseline", "mcp-stdio", "mcp-url",
    "select", "extend-select", "ignore", "severity", "options", "per-file-ignores", "per-tool-ignores",
)
DIALECTS = tuple(_dialect_table())
"""The dialect names the ``dialect`` key accepts: those of the dialect table
(:data:`schemalint.schema.dialect.DIALECTS`)."""
EXTRA_KEYS: dict[str, str] = {
    "snapshot-dir": "directory of the advertised-schema snapshots (`schemalint snapshot`)",
}
"""Keys that a single command reads from ``Config.raw`` (key -> one-line description).

Declared here, not by the command's module, so that :func:`load_config` accepts them whether
or not the CLI was imported (the Python API calls it without the CLI); the command reads and
validates the value itself from ``raw``.
"""


def _read_severity(v: _Validator, table: Any, rules: Sequence[AnyRule]) -> dict[str, Severity]:
    key = v.key("severity")
    if not isinstance(table, dict):
        raise v.error(key, f"must be a table of rule = severity, got {table!r}")
    out: dict[str, Severity] = {}
    for sel, value in table.items():
        problem = validate_selector(sel, rules)
        if problem:
            raise v.error(f"{key}.{sel}", problem)
        if not isinstance(value, str):
            raise v.error(f"{key}.{sel}", f"must be error, warning or info; got {value!r}")
        try:
            out[sel] = Severity.parse(value)
        except ValueError as exc:
            raise v.error(f"{key}.{sel}", str(exc)) from None
    return out


def _read_options(v: _Validator, table: Any, rules: Sequence[AnyRule]) -> dict[str, dict[str, Any]]:
    key = v.key("options")
    if not isinstance(table, dict):
        raise v.error(key, f"must be a table of rule tables (e.g. [{key}.SL301]), got {table!r}")
    out: dict[str, dict[str, Any]] = {}
    for rule_key, values in table.items():
        rkey = f"{key}.{rule_key}"
        rule = _find_rule(rule_key, rules)
        if rule is None:
            raise v.error(rkey, f"unknown rule {rule_key!r}: options are keyed by a rule's code or name"
                          + _suggest(rule_key, [r.code for r in rules] + [r.name for r in rules]))
        if not isinstance(values, dict):
            raise v.error(rkey, f"must be a table of option = value, got {values!r}")
        declared: Mapping[str, Any] = getattr(rule, "options", {}) or {}  # an entry imports only this rule
        if rule.code in out:
            raise v.error(rkey, f"options for {rule.code} are given twice (by code and by name)")
        checked: dict[str, Any] = {}
        for opt, value in values.items():
            if opt not in declared:
                known = ", ".join(sorted(declared)) or "none"
                raise v.error(f"{rkey}.{opt}", f"{rule.code} {rule.name} has no option {opt!r} "
                              f"(its options: {known}){_suggest(opt, declared)}")
            if not _option_type_ok(declared[opt], value):
                raise v.error(f"{rkey}.{opt}", f"must be {_type_name(declared[opt])}, got {value!r}")
            rule_class = rule.load() if hasattr(rule, "load") else rule  # already imported by .options
            if opt in getattr(rule_class, "regex_options", ()) and isinstance(value, str) and value:
                from schemalint.schema.patterns import problem

                why = problem(value)
                if why is not None:
                    raise v.error(f"{rkey}.{opt}", f"{value!r} {why}")
            checked[opt] = value
        out[rule.code] = checked
    return out


def _read_suppressions(v: _Validator, kind: str, entries: Any, rules: Sequence[AnyRule]) -> list[Suppression]:
    key = v.key(f"per-{kind}-ignores")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise v.error(key, f"must be an array of tables ([[{key}]]), got {entries!r}")
    allowed = {"rules", "reason", "files"} | ({"tools"} if kind == "tool" else set())
    out: list[Suppression] = []
    for i, entry in enumerate(entries):
        ekey = f"{key}[{i}]"
        for k in entry:
            if k not in allowed:
                raise v.error(f"{ekey}.{k}", f"unknown key (allowed: {', '.join(sorted(allowed))})"
                              + _suggest(k, allowed))
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise v.error(f"{ekey}.reason", "a non-empty `reason` is required: say why these findings "
                          "are accepted, so the suppression can be reviewed and removed later")
        sel = v.str_list(entry, "rules", f"{ekey}.rules")
        if not sel:
            raise v.error(f"{ekey}.rules", 'is required: the rule codes, names or prefixes to ignore '
                          '(use ["ALL"] for every rule)')
        _check_selectors(v, f"{ekey}.rules", sel, rules)
        files = v.str_list(entry, "files", f"{ekey}.files")
        tools = v.str_list(entry, "tools", f"{ekey}.tools") if kind == "tool" else []
        if kind == "file" and not files:
            raise v.error(f"{ekey}.files", "is required: the path globs (relative to the configuration "
                          "file) whose findings are ignored")
        if kind == "tool" and not tools:
            raise v.error(f"{ekey}.tools", "is required: the tool names (or globs) whose findings "
                          "are ignored")
        out.append(Suppression(kind, i, tuple(sel), reason.strip(), tuple(files), tuple(tools)))
    return out


def _read_mcp_stdio(v: _Validator, table: Mapping[str, Any]) -> list[str]:
    """``mcp-stdio``: commands, each non-empty and splittable as a shell-style command line."""
    import shlex

    commands = v.str_list(table, "mcp-stdio")
    for command in commands:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise v.error(v.key("mcp-stdio"), f"cannot split the command {command!r}: {exc}") from None
        if not argv:
            raise v.error(v.key("mcp-stdio"), "a command is empty")
    return commands


def _read_mcp_url(v: _Validator, table: Mapping[str, Any]) -> list[str]:
    """``mcp-url``: absolute http:// or https:// URLs (:func:`~schemalint.loaders.python.mcp_http.url_problem`)."""
    urls = v.str_list(table, "mcp-url")
    if urls:
        from schemalint.loaders.python.mcp_http import shown_url, url_problem

        for url in urls:
            problem = url_problem(url)
            if problem is not None:
                raise v.error(v.key("mcp-url"), f"{shown_url(url)!r}: {problem}")
    return urls


def selector_rules() -> tuple[AnyRule, ...]:
    """Everything a configured selector may name: the check rules (the static catalog, no rule
    module imported) and the diff checks (``SDxxx``, :mod:`schemalint.diff.checks`)."""
    from schemalint.diff.checks import BY_CODE
    from schemalint.rules.catalog import CATALOG

    return (*CATALOG, *BY_CODE.values())  # type: ignore[arg-type]  # a DiffCheck has code and name


def _strings(value: Any) -> list[str]:
    """A string or the strings of a list (anything else: none; validation reports it later)."""
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _selectors_in(table: Any) -> list[str]:
    """Every string the table uses as a rule selector (bad shapes are left to validation)."""
    if not isinstance(table, Mapping):
        return []
    out = [sel for key in ("select", "extend-select", "ignore") for sel in _strings(table.get(key))]
    severity = table.get("severity")
    if isinstance(severity, Mapping):
        out += [k for k in severity if isinstance(k, str)]
    for kind in ("per-file-ignores", "per-tool-ignores"):
        entries = table.get(kind)
        for entry in entries if isinstance(entries, list) else []:
            out += _strings(entry.get("rules")) if isinstance(entry, Mapping) else []
    return out


def parse_config(table: Mapping[str, Any], path: Path, *, prefix: str = "tool.schemalint",
                 rules: Sequence[AnyRule] | None = None) -> Config:
    """Validate a ``[tool.schemalint]`` table read from ``path`` into a :class:`Config`.

    ``rules`` defaults to the static catalog, and to :func:`selector_rules` (the catalog and the
    diff checks) when a selector names no rule of the catalog (the SD table is imported only
    then, for start-up); selectors and option tables are validated against it, importing only the rules named in
    ``options``. Raises :class:`ConfigError`.
    """
    if rules is None:
        from schemalint.rules.catalog import CATALOG

        rules = CATALOG
        if any(validate_selector(sel, CATALOG) for sel in _selectors_in(table)):
            rules = selector_rules()  # a diff check (or a typo): only then import the SD table
    v = _Validator(path, prefix)
    if not isinstance(table, Mapping):
        raise ConfigError(f"{path}: `{prefix}` must be a table")
    known = (*TOP_LEVEL_KEYS, *EXTRA_KEYS)
    for k in table:
        if k not in known:
            alt = k.replace("_", "-")
            hint = f" (did you mean `{alt}`?)" if alt in known else _suggest(k, known)
            raise v.error(v.key(k), f"unknown key{hint}; known keys: {', '.join(TOP_LEVEL_KEYS)}")
    cfg = Config(path=path, root=path.parent, raw=dict(table))
    cfg.sources = v.str_list(table, "sources")
    cfg.exclude = v.str_list(table, "exclude")
    cfg.target = v.str_list(table, "target")
    if cfg.target:
        from schemalint.targets import TargetError, parse_targets  # the profiles' table is the one list

        try:
            parse_targets(part for value in cfg.target for part in value.split(","))
        except TargetError as exc:
            raise v.error(v.key("target"), str(exc)) from None
    cfg.python_path = v.str_list(table, "python-path")
    cfg.dialect = v.string(table, "dialect")
    if cfg.dialect is not None:
        from schemalint.schema.dialect import normalize_dialect

        chosen = normalize_dialect(cfg.dialect)
        if chosen is None:
            raise v.error(v.key("dialect"), f"unknown dialect {cfg.dialect!r}; choose from {', '.join(DIALECTS)} "
                          "(aliases such as draft7 or a metaschema URI are accepted too)")
        cfg.dialect = chosen
    cfg.fail_on = v.string(table, "fail-on", FAIL_LEVELS)
    cfg.baseline = v.string(table, "baseline")
    cfg.mcp_stdio = _read_mcp_stdio(v, table)
    cfg.mcp_url = _read_mcp_url(v, table)
    if "select" in table:
        cfg.select = v.str_list(table, "select")
        _check_selectors(v, v.key("select"), cfg.select, rules)
    cfg.extend_select = v.str_list(table, "extend-select")
    _check_selectors(v, v.key("extend-select"), cfg.extend_select, rules)
    cfg.ignore = v.str_list(table, "ignore")
    _check_selectors(v, v.key("ignore"), cfg.ignore, rules)
    if "severity" in table:
        cfg.severity = _read_severity(v, table["severity"], rules)
    if "options" in table:
        cfg.options = _read_options(v, table["options"], rules)
    for kind in ("file", "tool"):
        name = f"per-{kind}-ignores"
        if name in table:
            cfg.suppressions.extend(_read_suppressions(v, kind, table[name], rules))
    return cfg


def load_config(explicit: Path | None = None, *, start: Path | None = None,
                rules: Sequence[AnyRule] | None = None) -> Config:
    """Read the configuration (``explicit`` path, or the nearest one from ``start``); defaults when none.

    ``rules``: validate selectors and options against these (default: the catalog).

    Raises :class:`ConfigError` for a missing explicit file, invalid TOML, an unknown
    key, rule or option, or a bad value.
    """
    here = (start or Path.cwd()).resolve()
    path, data = (explicit, None) if explicit else _find_config(start)
    repository = git_root(here)
    if path is None:
        return Config(root=here, project=repository or here)
    if data is None:
        if not path.exists():
            raise ConfigError(f"{path}: no such configuration file")
        data = _load_toml(path)
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get("schemalint", {}) if isinstance(tool, dict) else {}
        prefix = "tool.schemalint"
    elif isinstance(data.get("tool"), dict) and "schemalint" in data["tool"] and len(data) == 1:
        table, prefix = data["tool"]["schemalint"], "tool.schemalint"
    else:
        table, prefix = data, ""
    cfg = parse_config(table, path, prefix=prefix, rules=rules)
    cfg.root = path.resolve().parent
    cfg.project = repository if repository is not None and (cfg.root == repository or repository in
                                                            cfg.root.parents) else cfg.root
    if not explicit and repository is None and cfg.root != here:
        _refuse_code_from_outside(cfg, here)
    return cfg


def runs_code(cfg: Config) -> list[str]:
    """What in ``cfg`` makes schemalint run code: ``mcp-stdio`` commands, and ``sources`` that are
    imported (``module:attr`` Python sources, TypeScript/JavaScript modules)."""
    from schemalint.loaders.files.sources import is_module_source

    return [*(f"mcp-stdio {c!r}" for c in cfg.mcp_stdio),
            *(f"source {s!r}" for s in cfg.sources if is_module_source(s))]


def _refuse_code_from_outside(cfg: Config, here: Path) -> None:
    """Raise :class:`ConfigError` when ``cfg``, discovered above ``here`` outside any git work
    tree, names code to run (:func:`runs_code`): only a configuration inside the project runs code
    unless the user names it with ``--config``."""
    code = runs_code(cfg)
    if code:
        raise ConfigError(
            f"{cfg.path}: found above the working directory {here}, outside any git repository, and it names "
            f"code to run ({', '.join(code[:3])}{' ...' if len(code) > 3 else ''}); schemalint runs code named by "
            f"a configuration only inside the project: run from {cfg.root}, or pass --config {cfg.path} if "
            "you trust it (docs/security.md)")


def resolve_sources(config: Config) -> list[str]:
    """Configured sources as paths relative to the working directory when they exist.

    ``module:attr`` sources and globs are returned as written.
    """
    out = []
    for source in config.sources:
        candidate = config.root / source
        if candidate.exists():
            out.append(config.resolve_path(source))
        else:
            out.append(source)
    return out
