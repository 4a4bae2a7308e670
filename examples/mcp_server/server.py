"""A small MCP server with one drifting tool and clean ones (schemalint example).

Run it over stdio:  python examples/mcp_server/server.py
Run it over HTTP:   python examples/mcp_server/server.py --http 8000   (Streamable HTTP on 127.0.0.1:8000/mcp)
Lint it in memory:  schemalint check examples.mcp_server.server:mcp
Lint it over stdio: schemalint check --mcp-stdio "python examples/mcp_server/server.py"
Lint it over HTTP:  schemalint check --mcp-url http://127.0.0.1:8000/mcp

``present_answer`` drifts twice:
* ``presentation`` is hidden from the advertised schema (``SkipJsonSchema``) but has no
  default, so ``tools/call`` refuses every call that obeys the advertised contract;
* its description still asks for a ``name`` argument that the schema no longer has.
"""

from __future__ import annotations

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

try:  # official SDK v2
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # official SDK v1
    from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef]

mcp = Server("schemalint-example")


class Presentation(BaseModel):
    """How the answer is shown."""

    kind: str = Field(description="chart, table or text")
    title: str | None = None


class Sum(BaseModel):
    """A sum and the numbers it came from."""

    total: float
    terms: list[float]


@mcp.tool()
def present_answer(artifact: str, presentation: SkipJsonSchema[Presentation]) -> str:
    """Show the final answer to the user.

    Pass the `artifact` id of the answer and a short `name` for tracking.
    """
    return f"{artifact} shown as {presentation.kind}"


@mcp.tool()
def add(a: float, b: float) -> Sum:
    """Add the numbers `a` and `b`."""
    return Sum(total=a + b, terms=[a, b])


@mcp.tool()
def search_notes(query: str, limit: int = 10) -> list[str]:
    """Search the notes for `query`; return at most `limit` titles."""
    return [f"note about {query}"][:limit]


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--http"]:
        port = int(sys.argv[2])
        if Server.__name__ == "MCPServer":  # mcp >= 2
            mcp.run("streamable-http", host="127.0.0.1", port=port)
        else:  # mcp 1.x: host and port are settings
            mcp.settings.host, mcp.settings.port = "127.0.0.1", port
            mcp.run("streamable-http")
    else:
        mcp.run()
