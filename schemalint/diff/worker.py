"""Subprocess entry point: import ``module:attr`` sources from a checkout and print their tools.

Run by :func:`schemalint.diff.sources.load_python_at_revision` as
``python -c "from schemalint.diff.worker import main; main()"`` with a JSON request on
stdin: ``{"root": DIR, "sources": ["pkg.mod:TOOLS"], "python_path": ["src"]}``. schemalint
itself is imported before ``root`` is put first on ``sys.path``, so the checkout's own
copy of any module shadows the installed one, but never schemalint. Prints
``{"tools": [...]}`` (see :func:`~schemalint.diff.sources.tool_to_json`); on failure
prints one line to stderr and exits 2.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    """Read the request from stdin, import the sources, write the tools as JSON to stdout."""
    from schemalint.diff.compare import DiffError
    from schemalint.diff.sources import load_python_tools, tool_to_json

    request = json.load(sys.stdin)
    root = request["root"]
    extra = [p if os.path.isabs(p) else os.path.join(root, p) for p in request.get("python_path", [])]
    os.chdir(root)
    sys.path[:0] = [root, *extra]
    tools: list[dict[str, object]] = []
    out = sys.stdout
    sys.stdout = sys.stderr  # what the imported modules print must not mix with the tools' JSON
    try:
        for source in request["sources"]:
            tools.extend(tool_to_json(t) for t in load_python_tools(source, extra))
    except DiffError as exc:
        print(str(exc), file=sys.stderr)
        raise SystemExit(2) from None
    finally:
        sys.stdout = out
    json.dump({"tools": tools}, out, default=str)


if __name__ == "__main__":  # pragma: no cover
    main()
