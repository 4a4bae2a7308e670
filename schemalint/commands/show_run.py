"""``schemalint show`` as a request and its run: the tools of one name found in the sources, each as
the view the reporters render (the advertised schema next to the runtime's, :mod:`schemalint.show`).

``schemalint show`` parses its options into one :class:`ShowRequest` and hands it to
:func:`run_show`, which resolves what to read against the configuration, loads, finds the tools
named (or fails with the names that come close) and refuses a schema too deep to render. An API
caller building the same request gets the same views and the same errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from schemalint.commands.reading import CommandRequest

if TYPE_CHECKING:
    from schemalint.show import ToolView


@dataclass(frozen=True)
class ShowRequest(CommandRequest):
    """Everything one ``show`` is asked, as the options give it (sequences as tuples).

    ``tool``: the tool's name. ``sources``: where to look (none, and no server: the
    configuration's ``sources``, ``mcp-stdio`` and ``mcp-url``). ``python_path``: import roots added
    to the configuration's. ``mcp_stdio``/``mcp_url``/``mcp_headers``: MCP servers to list (their
    tools have the advertised side only). ``config``: the :class:`~schemalint.config.Config`
    (``None``: none).
    """

    tool: str
    sources: tuple[str, ...] = ()
    python_path: tuple[str, ...] = ()


def run_show(request: ShowRequest) -> list[ToolView]:
    """The view of every tool named ``request.tool`` in what the request reads (one per definition).
    Raises :class:`~schemalint.engine.request.RequestError` (nothing to read, headers without a URL,
    no tool of that name: the message lists up to three close names; a schema nesting deeper than
    :data:`schemalint.diff.render.MAX_RENDER_DEPTH` levels), and
    :class:`~schemalint.errors.SourceError` / :class:`~schemalint.config.ConfigError` as
    :func:`schemalint.api.load` does."""
    from schemalint.api import load
    from schemalint.commands.reading import request_error, what_to_read
    from schemalint.show import build_view, find_tools_named

    cfg = request.cfg
    srcs, servers = what_to_read(request.sources, request.mcp_stdio, request.mcp_url, request.mcp_headers, cfg)
    loaded = load(srcs, exclude=cfg.exclude, python_path=cfg.import_roots(list(request.python_path)),
                  **servers.load_kwargs())
    matches = find_tools_named(loaded.tools, request.tool)
    if not matches:
        import difflib

        names = sorted({t.name for t in loaded.tools})
        close = difflib.get_close_matches(request.tool, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise request_error(f"no tool named {request.tool!r} in {', '.join([*srcs, *servers.names()])} "
                            f"({len(names)} tools){hint}")
    from schemalint.diff.render import MAX_RENDER_DEPTH, nesting_depth

    for t in matches:  # to_draft7, json and rich recurse per level: refuse what would overflow
        parts = [t.advertised] + ([t.runtime.input, t.runtime.output] if t.runtime else [])
        if any(nesting_depth(p, MAX_RENDER_DEPTH) > MAX_RENDER_DEPTH for p in parts):
            raise request_error(f"tool {t.name!r} ({t.origin.file}): its schema nests more than "
                                f"{MAX_RENDER_DEPTH:,} levels deep; it is not shown")
    return [build_view(t) for t in matches]
