"""Baselines: record today's findings so that only new ones fail the build.

A finding's fingerprint is independent of line numbers and of where the tool sits in
its file: ``(code, file, tool, path, instance_path)`` where ``file`` is relative to the
configuration root (``/`` separators), ``tool`` is the tool name (``None`` for
file-level findings such as SL000) and ``path`` is the diagnostic's JSON pointer
*relative to the tool object* (``/parameters/properties/x``), so inserting a tool above
it, reformatting the file or reordering tools keeps the fingerprint.

The baseline file is JSON, one entry per line, sorted, with a ``count`` for findings
that share a fingerprint::

    {
      "schemalint_baseline": 1,
      "entries": [
        {"code": "SL101", "file": "tools/a.json", "tool": "present_answer", "path": "/parameters", ...},
        ...
      ]
    }

``name`` and ``message`` are stored for the reader but are not part of the fingerprint.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemalint.model import BaselineEntry, Diagnostic, Fingerprint

FORMAT_VERSION = 1
VERSION_KEY = "schemalint_baseline"


class BaselineError(Exception):
    """A baseline file that cannot be read or is not a schemalint baseline (exit code 2)."""


@dataclass
class Baseline:
    """Recorded fingerprints with counts; ``path`` is where it was read from, if anywhere."""

    entries: list[BaselineEntry] = field(default_factory=list)
    path: str | None = None

    @classmethod
    def from_findings(cls, diagnostics: Sequence[Diagnostic],
                      fingerprints: Sequence[Fingerprint]) -> Baseline:
        """A baseline recording ``diagnostics`` (aligned with their ``fingerprints``)."""
        by_fp: dict[Fingerprint, BaselineEntry] = {}
        for d, fp in zip(diagnostics, fingerprints, strict=True):
            if fp in by_fp:
                by_fp[fp].count += 1
            else:
                by_fp[fp] = BaselineEntry(fp, 1, d.name, d.message)
        return cls(sorted(by_fp.values(), key=lambda e: e.fingerprint.sort_key()))

    def counts(self) -> Counter[Fingerprint]:
        """How many findings each fingerprint covers."""
        c: Counter[Fingerprint] = Counter()
        for e in self.entries:
            c[e.fingerprint] += e.count
        return c

    def dumps(self) -> str:
        """The file text: sorted entries, one per line, trailing newline."""
        lines = [_line(e.to_json()) for e in sorted(self.entries, key=lambda e: e.fingerprint.sort_key())]
        body = ",\n    ".join(lines)
        entries = f"[\n    {body}\n  ]" if lines else "[]"
        return f'{{\n  "{VERSION_KEY}": {FORMAT_VERSION},\n  "entries": {entries}\n}}\n'

    def write(self, path: str | os.PathLike[str], *, reads: Iterable[str | os.PathLike[str]] = (),
              project: str | os.PathLike[str] | None = None) -> None:
        """Write :meth:`dumps` to ``path`` through the one write policy of the commands
        (:func:`schemalint.safe_write.write_output`, docs/security.md): refused with
        :class:`~schemalint.safe_write.WriteRefused` (nothing written) when ``path`` exists and is
        not a schemalint baseline, is not a regular file (a device, a FIFO, a directory), is one of
        ``reads`` (the files the caller's run read), or is a symbolic link (or a path through one)
        that leads out of ``project``; otherwise written atomically. ``project`` defaults to the git
        work tree holding the working directory, else the working directory. Raises ``OSError``
        when the write itself fails."""
        from schemalint.safe_write import write_output

        if project is None:
            from schemalint.config import git_root

            here = Path.cwd().resolve()
            project = git_root(here) or here
        write_output(path, self.dumps(), what="baseline", is_ours=is_baseline_text, reads=reads, project=project)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Baseline:
        """Read a baseline file; raises :class:`BaselineError` naming the file and the problem."""
        from schemalint.safe_read import UnreadableFile, read_text

        try:
            data = json.loads(read_text(path))
        except FileNotFoundError:
            raise BaselineError(f"{path}: baseline file not found (create it with "
                                f"`schemalint check --write-baseline {path}`)") from None
        except UnreadableFile as exc:
            raise BaselineError(f"{path}: cannot read baseline: {exc.reason}") from None
        except OSError as exc:
            raise BaselineError(f"{path}: cannot read baseline: {exc.strerror or exc}") from None
        except json.JSONDecodeError as exc:
            raise BaselineError(f"{path}: baseline is not valid JSON: line {exc.lineno} column "
                                f"{exc.colno}: {exc.msg}") from None
        except RecursionError:
            raise BaselineError(f"{path}: not a schemalint baseline: nested too deeply") from None
        except ValueError as exc:  # an integer beyond Python's int/str conversion limit
            raise BaselineError(f"{path}: not a schemalint baseline: {str(exc).split(';')[0]}") from None
        if not isinstance(data, dict) or data.get(VERSION_KEY) != FORMAT_VERSION:
            raise BaselineError(f"{path}: not a schemalint baseline (expected "
                                f'"{VERSION_KEY}": {FORMAT_VERSION})')
        raw = data.get("entries")
        if not isinstance(raw, list):
            raise BaselineError(f"{path}: `entries` must be a list")
        entries = []
        for i, item in enumerate(raw):
            entries.append(_entry(item, f"{path}: entries[{i}]"))
        return cls(entries, str(path))


def _line(value: Any) -> str:
    """One entry as JSON text: readable non-ASCII, ``\\u`` escapes when a string cannot be
    encoded as UTF-8 (a lone surrogate in a tool name)."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value)
    return text


def is_baseline_text(head: bytes) -> bool:
    """Whether the first bytes of a file are a schemalint baseline (a JSON object with
    ``"schemalint_baseline"``): what ``--write-baseline`` may replace
    (:func:`schemalint.safe_write.check_output`). Any other file (a tool file, a configuration,
    a README) is not schemalint's to replace."""
    return head.lstrip().startswith(b"{") and f'"{VERSION_KEY}"'.encode() in head


def _entry(item: Any, where: str) -> BaselineEntry:
    if not isinstance(item, dict):
        raise BaselineError(f"{where}: must be an object")

    def opt_str(key: str) -> str | None:
        value = item.get(key)
        if value is not None and not isinstance(value, str):
            raise BaselineError(f"{where}: `{key}` must be a string or null")
        return value

    code, file, path = item.get("code"), item.get("file"), item.get("path")
    for key, value in (("code", code), ("file", file), ("path", path)):
        if not isinstance(value, str):
            raise BaselineError(f"{where}: `{key}` must be a string")
    count = item.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise BaselineError(f"{where}: `count` must be a positive integer")
    fp = Fingerprint(str(code), str(file), opt_str("tool"), str(path), opt_str("instance_path"))
    return BaselineEntry(fp, count, str(item.get("name") or ""), str(item.get("message") or ""))


@dataclass
class BaselineOutcome:
    """What applying a baseline did: indexes of hidden findings and stale entries."""

    hidden: list[int]
    stale: list[BaselineEntry]


def apply_baseline(
    baseline: Baseline, fingerprints: Iterable[Fingerprint], in_scope: Callable[[str], bool] | None = None
) -> BaselineOutcome:
    """Match findings (in order) against ``baseline``; a fingerprint recorded ``n`` times hides
    at most ``n`` findings. Entries (or parts of counts) that matched nothing are stale, if
    ``in_scope(entry file)`` says this run could have found them (default: every entry): a run
    on some of the files (a pre-commit hook) says nothing of the others' findings."""
    remaining = baseline.counts()
    hidden = []
    for i, fp in enumerate(fingerprints):
        if remaining.get(fp, 0) > 0:
            remaining[fp] -= 1
            hidden.append(i)
    stale = []
    for e in baseline.entries:
        left = remaining.get(e.fingerprint, 0)
        if left > 0 and (in_scope is None or in_scope(e.fingerprint.file)):
            n = min(left, e.count)
            remaining[e.fingerprint] -= n
            stale.append(BaselineEntry(e.fingerprint, n, e.name, e.message))
    return BaselineOutcome(hidden, stale)
