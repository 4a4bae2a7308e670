"""Load TypeScript/JavaScript module sources through the Node worker (docs/typescript.md).

``path/to/tools.ts:ATTR`` (also ``.mts``, ``.cts``, ``.js``, ``.mjs``, ``.cjs``; no ``:ATTR``:
every export) is imported by ``node`` with the project's own ``node_modules`` (resolved from
the module's folder). The worker lists AI SDK tools, MCP TypeScript SDK servers and bare zod
object schemas: the advertised schema is what the framework sends (``asSchema(...).jsonSchema``,
``tools/list``), the runtime is the zod schema (its input and output renderings, and its
``safeParse`` answering the calls schemalint generates).

Here, after the listing, the same probe engine as for pydantic
(:func:`schemalint.probe.omission_probe`, every key left out in turn) measures which keys the
runtime refuses a call for omitting (``Contract.refused_when_omitted``), so the contract rules
(SL101 ...) see it; ``check`` then runs its own SL107 probes against the advertised schema.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from schemalint.loaders.files.sources import SourceError, safe_glob, split_typescript_source
from schemalint.model import Diagnostic, Tool

LOAD_PROBE_SECONDS = 2.0
"""Time for the omission probes that measure ``refused_when_omitted`` of one tool (as for pydantic)."""


def _plan(source: str, cwd: str | None) -> dict[str, str]:
    from schemalint.loaders.typescript.node import TS_SUFFIXES, tsx_api

    split = split_typescript_source(source)
    if split is None:
        raise SourceError(f"{source}: not a TypeScript or JavaScript module source")
    path, attr = split
    full = Path(cwd or os.getcwd()) / path
    if not full.is_file():
        raise SourceError(f"{source}: no such file {path}")
    full = full.resolve()
    tsx = tsx_api(full.parent)
    if tsx is not None:
        loader = "tsx"
    elif full.suffix.lower() in TS_SUFFIXES:
        loader = "strip"
    else:
        loader = "native"
    plan = {"file": str(full), "attr": attr, "loader": loader, "shown": path}
    if tsx is not None:
        plan["tsx"] = tsx
        tsconfig = _nearest_tsconfig(full.parent)
        if tsconfig is not None:
            plan["tsconfig"] = tsconfig
    return plan


def _nearest_tsconfig(folder: Path) -> str | None:
    """The ``tsconfig.json`` nearest above ``folder`` (the module's own package's, whose ``paths``
    aliases its imports use), or ``None``. tsx reads the working directory's otherwise: in a
    monorepo checked from its root, a package's ``@tools``-style aliases were then unknown
    ("is not a valid package name")."""
    for candidate in (folder, *folder.parents):
        found = candidate / "tsconfig.json"
        if found.is_file():
            return str(found)
        if (candidate / ".git").exists():
            return None
    return None


def _expand(sources: Sequence[str], cwd: str | None, exclude: Sequence[str] = ()) -> list[tuple[str, str | None]]:
    """``sources`` with each glob (``src/tools/*.ts:TOOLS``) replaced by the files it matches,
    sorted, each with the same ``:ATTR``, less those ``exclude`` names (fnmatch patterns matched
    against the path relative to ``cwd`` and each of its parts, as for a directory walk:
    :func:`schemalint.loaders.files.sources.expand_sources`); a module named without a glob is
    always kept. Each entry is ``(source, pattern)``: ``pattern`` is the glob that matched it, or
    ``None`` for a module named as it is (also when a glob matches it too: it is imported once, at
    its first place). :class:`SourceError` when a glob matches no file (before ``exclude``)."""

    from schemalint.loaders.files.sources import _excluded

    out: dict[str, tuple[str, str | None]] = {}  # by the module's normalised path and attr

    def key(path: str, attr: str | None) -> str:
        return f"{os.path.normpath(path)}:{attr or ''}"

    for source in sources:
        split = split_typescript_source(source)
        if split is None or not any(ch in split[0] for ch in "*?["):
            out[key(*split) if split is not None else source] = (source, None)
            continue
        path, attr = split
        base = cwd or os.getcwd()
        matches = sorted(os.path.relpath(m, base) for m in safe_glob(os.path.join(base, path))
                         if os.path.isfile(m) and "node_modules" not in Path(m).parts)
        if not matches:
            raise SourceError(f"{source}: the pattern matches no file")
        for m in matches:
            if not _excluded(m, exclude):
                out.setdefault(key(m, attr), (f"{m}:{attr}" if attr else m, source))
    return list(out.values())


def held_parts(loaded: Sequence[tuple[str | None, list[Tool]]]) -> tuple[list[list[Tool]], list[tuple[str, str, int]]]:
    """Hold back the modules that a glob matched and that hold only bare zod schemas, when another
    module matched by the same glob defines framework tools (AI SDK, MCP server): such a module holds
    the tools' parts (shared schemas, DTOs), as a module read as a whole that holds framework tools
    has its bare zod schemas read as their parts (docs/typescript.md, "What is read").

    ``loaded``: per source, in order, ``(pattern, tools)`` (``pattern`` as :func:`_expand` gives
    it: ``None`` for a module named as it is, which is never held back). Returns the tools per
    source, with the held-back ones emptied, and ``(pattern, module, count)`` per module held back.
    Measured on microsoft/azure-devops-mcp: ``src/tools/*.ts`` matched ``pipelines.dto.ts``, whose
    7 exported zod schemas (the ``pipelines_write`` tool's parts) were read as 7 tools without a
    description (SL007)."""
    with_framework = {pattern for pattern, tools in loaded
                      if pattern is not None and any(t.origin.format != "zod" for t in tools)}
    kept: list[list[Tool]] = []
    held: list[tuple[str, str, int]] = []
    for pattern, tools in loaded:
        if pattern in with_framework and tools and all(t.origin.format == "zod" for t in tools):
            held.append((pattern, tools[0].origin.file, len(tools)))
            kept.append([])
        else:
            kept.append(tools)
    return kept, held


def held_parts_note(held: Sequence[tuple[str, str, int]]) -> str:
    """The summary's note for the modules :func:`held_parts` held back."""
    schemas = sum(n for _p, _m, n in held)
    modules = ", ".join(f"{m} ({n})" for _p, m, n in held[:5]) + (f" and {len(held) - 5} more" if len(held) > 5 else "")
    patterns = ", ".join(dict.fromkeys(repr(p) for p, _m, _n in held))
    return (f"{schemas} bare zod schema(s) in {len(held)} module(s) matched by {patterns} were not checked as "
            f"tools ({modules}): such a module exports only zod schemas while other modules of the pattern "
            "define framework tools (MCP server, AI SDK), so its schemas are read as those tools' parts; "
            "name the module as a source (without a glob) to check its schemas as tools")


class PendingTypeScript:
    """TypeScript sources sent to one Node worker, whose answers are read by :meth:`finish`.

    ``cwd``: the folder relative paths are read from and the worker runs in (default: this
    process's); ``time_limit``: seconds per source (default: ``SCHEMALINT_IMPORT_TIME_LIMIT``);
    ``exclude``: patterns leaving out modules a glob matches (:func:`_expand`). When nothing is
    left to import, no worker is started.
    Raises :class:`SourceError` (one line, exit 2) when ``node`` is missing, a file does not
    exist, or a TypeScript file can be run neither with the project's tsx nor by this Node.
    """

    def __init__(self, sources: Sequence[str], cwd: str | None = None, time_limit: float | None = None,
                 exclude: Sequence[str] = ()) -> None:
        from schemalint.loaders.typescript.node import (
            REACT_SERVER_FLAG,
            NodeWorker,
            find_node,
            needs_react_server,
            node_version,
            strips_types,
        )

        expanded = _expand(sources, cwd, exclude)
        self.sources = [s for s, _p in expanded]
        self.patterns = [p for _s, p in expanded]
        self.notes: list[str] = []
        """Notes for the summary, set by :meth:`finish` (modules held back by :func:`held_parts`)."""
        self.cwd = cwd
        self.worker: NodeWorker | None = None
        self.pending: list[Any] = []
        plans = [_plan(s, cwd) for s in self.sources]
        if not plans:
            return
        node = find_node(self.sources[0])
        flags: tuple[str, ...] = ()
        # Server code of a React Server Components framework (Next.js) is resolved with the
        # react-server condition, as the framework does; one worker serves every source, so the
        # condition is on for all of them when one needs it.
        conditions = (REACT_SERVER_FLAG,) if any(needs_react_server(Path(p["file"])) for p in plans) else ()
        for source, plan in zip(self.sources, plans, strict=True):
            if plan["loader"] != "strip":
                continue
            version = node_version(node)
            how = strips_types(version)
            if how is None:
                shown = ".".join(str(v) for v in version)
                module = Path(plan["file"])
                declared = _declaring("tsx", module)
                if declared is not None:
                    raise SourceError(
                        f"{source}: a TypeScript module needs tsx or Node 22.6 or later, which strips types itself; "
                        f"tsx is declared in {_shown(str(declared), cwd)} but not installed (no node_modules/tsx "
                        f"from {module.parent}): install the project's packages first ({_install(module)}); "
                        f"found Node {shown}{_engines(module, cwd)}")
                raise SourceError(
                    f"{source}: a TypeScript module needs tsx in its project ({_add_dev(module)}) or Node "
                    f"22.6 or later, which strips types itself; found no tsx from {module.parent} and "
                    f"Node {shown}{_engines(module, cwd)}{_not_installed(module)}")
            if how:
                flags = (how,)
        worker = self.worker = NodeWorker(node, flags + conditions, cwd=cwd, time_limit=time_limit)
        try:
            self.pending = [worker.submit_load(s, (), {k: v for k, v in p.items() if k != "shown"})
                            for s, p in zip(self.sources, plans, strict=True)]
        except BaseException:
            worker.close()
            raise

    def close(self) -> None:
        """Stop the worker (if one was started)."""
        if self.worker is not None:
            self.worker.close()

    def finish(self) -> tuple[list[Tool], list[Diagnostic]]:
        """The tools (in source order, with ``refused_when_omitted`` measured) and load problems.
        Raises :class:`SourceError` for the first source that cannot be loaded (the worker is stopped)."""
        tools: list[Tool] = []
        problems: list[Diagnostic] = []
        worker = self.worker
        if worker is None:
            return tools, problems
        try:
            # Every load answer first: the worker answers in request order, and an answer read
            # while waiting for a later request's (a probe's) would be lost.
            loaded: list[tuple[str | None, list[Tool]]] = []
            for pattern, pending in zip(self.patterns, self.pending, strict=True):
                got, found = worker.finish_load(pending)
                loaded.append((pattern, [_relative(t, self.cwd) for t in got]))
                problems.extend(dataclasses.replace(d, file=_shown(d.file, self.cwd)) for d in found)
            kept, held = held_parts(loaded)
            tools = [t for group in kept for t in group]
            if held:
                self.notes.append(held_parts_note(held))
            from schemalint.probe import load_budget

            with load_budget() as budget:
                tools = [_measured(t) for t in tools]
            stopped = budget.diagnostic(", ".join(self.sources))
            if stopped is not None:
                problems.append(stopped)
        except BaseException:
            worker.close()
            raise
        if not any(t.runtime is not None and t.runtime.validate is not None for t in tools):
            worker.close()
        return tools, problems


def _package_files(module: Path) -> list[Path]:
    """The ``package.json`` files at or above ``module``'s folder, nearest first, up to the
    repository root (a folder holding ``.git``)."""
    found = []
    for folder in module.parents:
        if (folder / "package.json").is_file():
            found.append(folder / "package.json")
        if (folder / ".git").exists():
            break
    return found


def _declaring(name: str, module: Path) -> Path | None:
    """The nearest ``package.json`` at or above ``module`` (:func:`_package_files`) that declares
    package ``name`` in ``dependencies`` or ``devDependencies``, or ``None``. Measured on
    getsentry/sentry-mcp (a pnpm workspace): tsx is a dependency of the workspace root, and before
    ``pnpm install`` the error said to add it."""
    import json

    for file in _package_files(module):
        try:
            meta = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and any(isinstance(meta.get(k), dict) and name in meta[k]
                                          for k in ("dependencies", "devDependencies")):
            return file
    return None


def _engines(module: Path, cwd: str | None) -> str:
    """``" (the project asks for Node >=22.13: engines in package.json)"`` from the nearest
    ``package.json`` at or above ``module`` that states ``engines.node``, else ``""``."""
    import json

    for file in _package_files(module):
        try:
            meta = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        engines = meta.get("engines") if isinstance(meta, dict) else None
        if isinstance(engines, dict) and isinstance(engines.get("node"), str):
            return f" (the project asks for Node {engines['node']}: engines in {_shown(str(file), cwd)})"
    return ""


def _not_installed(module: Path) -> str:
    """``"; ..."`` naming the install command when no ``node_modules`` folder exists at or above
    ``module``'s folder (the project's packages were never installed), else ``""``."""
    if any((folder / "node_modules").is_dir() for folder in module.parents):
        return ""
    return f"; no node_modules exists above it either: install the project's packages first ({_install(module)})"


def _install(module: Path) -> str:
    """The command that installs the project's packages, told by the lock file at or above
    ``module``'s folder (pnpm, yarn, bun, npm's ``package-lock.json``: ``npm ci``; else ``npm install``)."""
    for folder in module.parents:
        if (folder / "pnpm-lock.yaml").is_file():
            return "pnpm install"
        if (folder / "yarn.lock").is_file():
            return "yarn install"
        if (folder / "bun.lockb").is_file() or (folder / "bun.lock").is_file():
            return "bun install"
        if (folder / "package-lock.json").is_file():
            return "npm ci"
    return "npm install"


def _add_dev(module: Path) -> str:
    """The command that adds tsx as a development dependency with the project's own package
    manager, told by the lock file at or above ``module``'s folder (pnpm, yarn, bun; else npm).
    A pnpm workspace root (``pnpm-workspace.yaml`` beside the lock file) needs ``-w``."""
    for folder in module.parents:
        if (folder / "pnpm-lock.yaml").is_file():
            return "pnpm add -D -w tsx" if (folder / "pnpm-workspace.yaml").is_file() else "pnpm add -D tsx"
        if (folder / "yarn.lock").is_file():
            return "yarn add -D tsx"
        if (folder / "bun.lockb").is_file() or (folder / "bun.lock").is_file():
            return "bun add -d tsx"
        if (folder / "package-lock.json").is_file():
            break
    return "npm install --save-dev tsx"


def _shown(file: str, cwd: str | None) -> str:
    """``file`` (absolute, from the worker) relative to ``cwd`` when it lies inside it."""
    base = os.path.realpath(cwd or os.getcwd())
    if os.path.isabs(file):
        rel = os.path.relpath(file, base)
        if not rel.startswith(".."):
            return rel.replace(os.sep, "/")
    return file


def _relative(tool: Tool, cwd: str | None) -> Tool:
    return dataclasses.replace(tool, origin=dataclasses.replace(tool.origin, file=_shown(tool.origin.file, cwd)))


def _measured(tool: Tool) -> Tool:
    """``tool`` with ``refused_when_omitted``: the instance paths whose omission from a complete
    call (built from the runtime's input rendering) the runtime refused."""
    runtime = tool.runtime
    if runtime is None or runtime.validate is None:
        return tool
    schema = runtime.input if isinstance(runtime.input, Mapping) else tool.advertised
    if not isinstance(schema, Mapping):
        return tool
    from schemalint.probe import load_share, load_spent, omission_probe

    share = load_share(LOAD_PROBE_SECONDS)
    result = omission_probe(schema, runtime.validate, omit="all", time_limit=LOAD_PROBE_SECONDS, budget=share)
    load_spent(tool.name, share, LOAD_PROBE_SECONDS, result)
    refused = tuple(sorted({r.instance_path for r in result.refusals
                            if r.kind == "omission" and r.instance_path is not None}))
    return dataclasses.replace(tool, runtime=dataclasses.replace(runtime, refused_when_omitted=refused))


def load_typescript_sources(sources: Sequence[str], *, cwd: str | None = None, time_limit: float | None = None,
                            exclude: Sequence[str] = (), notes: list[str] | None = None,
                            ) -> tuple[list[Tool], list[Diagnostic]]:
    """Import each TypeScript/JavaScript module source in one Node worker; the tools (in source
    order) and the load problems (SL000). ``exclude``: as for :class:`PendingTypeScript`;
    ``notes``: receives the run's notes (:attr:`PendingTypeScript.notes`).
    Raises :class:`SourceError` (see :class:`PendingTypeScript`)."""
    pending = PendingTypeScript(sources, cwd, time_limit, exclude)
    found = pending.finish()
    if notes is not None:
        notes.extend(pending.notes)
    return found
