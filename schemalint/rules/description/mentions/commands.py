"""Tools whose input is a command line, a script or a query: the words of their descriptions' code
spans may be that language's words, not the call's keys.

A shell tool's description says "Use `git` to commit, and `npm` to install"; a SQL tool's "Use
`LIMIT` to cap the rows". Read as instructions, these present `git`, `npm` and `LIMIT` as
parameters. When the tool declares a property that carries such text (a ``command``, ``script``,
``code`` or ``sql`` string, or one whose description says it is a command or code to run), an
instruction's object that names a common program (``git``, ``rg``, ``npm``; not ``cwd`` or
``timeout``, which such a tool may well take) is taken as what the model writes into that
property: a plain mention, which only SL202 trusts. SQL keywords need no list: a name in capitals
is never a mention.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_COMMAND_PROPERTIES = frozenset((
    "command", "cmd", "commands", "script", "shell", "bash", "code", "program", "cmdline", "command_line",
    "commandline", "shell_command", "bash_command", "sql", "sql_query", "query_sql", "statement", "snippet",
    "source_code", "python_code", "js_code", "javascript", "python", "powershell",
))
"""Names of properties that carry a command line, a script or a query."""
_RE_RUNNABLE = re.compile(
    r"\b(?:shell|bash|terminal|cli|sql|powershell)\s+(?:command|script|statement|query)|"
    r"\b(?:command(?:\s+line)?|script|code|program)\s+to\s+(?:run|execute|evaluate)", re.I)
"""A property description saying its value is a command, a script or code to run."""
_VERB_FORMS = ("imperative", "role")
"""The mention forms read from an instruction's verb (:mod:`.imperatives`)."""


def takes_command_text(schema: Any) -> bool:
    """Whether the object schema ``schema`` declares, among its own ``properties``, a string-valued
    (or untyped) property that carries a command line, a script or a query: by its name
    (:data:`_COMMAND_PROPERTIES`, any case) or by its description (:data:`_RE_RUNNABLE`)."""
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping):
        return False
    for name, sub in props.items():
        if not isinstance(sub, Mapping) or sub.get("type", "string") not in ("string", ["string"]):
            continue
        if isinstance(name, str) and name.lower() in _COMMAND_PROPERTIES:
            return True
        text = sub.get("description")
        if isinstance(text, str) and _RE_RUNNABLE.search(text):
            return True
    return False


_PROGRAMS = frozenset((
    "git", "gh", "npm", "npx", "pnpm", "yarn", "bun", "deno", "node", "pip", "pipx", "uv", "poetry", "python",
    "python3", "ruby", "gem", "go", "cargo", "rustc", "java", "mvn", "gradle", "dotnet", "make", "cmake", "rg",
    "grep", "egrep", "fd", "find", "ls", "cat", "head", "tail", "less", "more", "sed", "awk", "sort", "uniq", "wc",
    "cut", "tr", "xargs", "tee", "diff", "patch", "curl", "wget", "ssh", "scp", "rsync", "tar", "zip", "unzip",
    "gzip", "gunzip", "docker", "podman", "kubectl", "helm", "terraform", "aws", "gcloud", "az", "brew", "apt",
    "dnf", "yum", "apk", "cd", "cp", "mv", "rm", "mkdir", "rmdir", "touch", "chmod", "chown", "ln", "echo",
    "printf", "env", "export", "which", "whereis", "ps", "kill", "top", "df", "du", "jq", "yq", "psql", "mysql",
    "sqlite3", "redis-cli", "mongosh", "ruff", "black", "flake8", "mypy", "pytest", "eslint", "prettier", "tsc",
    "jest", "vitest", "bash", "sh", "zsh", "fish", "pwsh", "powershell", "code", "vim", "nano", "emacs", "open",
    "xdg-open"
))
"""Programs a shell tool's description names in code spans ("Use `rg` to search"): a closed list of
common command-line programs and shell built-ins, read only in tools that take command text."""


def written_in_command(kind: str, token: str) -> bool:
    """Whether a mention of ``kind`` naming ``token``, in a tool that takes command text
    (:func:`takes_command_text`), is read as that text's word: an instruction's object (or role)
    naming a common program (:data:`_PROGRAMS`; "Use `cwd` to pick the directory" still names a
    key)."""
    return kind.startswith(_VERB_FORMS) and token.lower() in _PROGRAMS
