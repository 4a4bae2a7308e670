"""The standalone fastmcp package: tools/list through fastmcp.Client vs the call-signature validator."""

from datetime import datetime, timezone
from typing import Annotated

import pytest

pytest.importorskip("fastmcp")
pytest.importorskip("mcp")

from fastmcp import Context, FastMCP
from pydantic import BaseModel, Field, PlainSerializer

from schemalint.loaders.python.mcp_server import tools_from_object

CALLS: list[str] = []


class Spec(BaseModel):
    x: int
    label: str = "a"


class Report(BaseModel):
    total: int
    note: str = Field(default="ok", serialization_alias="remark")
    at: Annotated[datetime, PlainSerializer(lambda d: d.timestamp(), return_type=float)]


def build(strict: bool = False) -> FastMCP:
    server = FastMCP("t", strict_input_validation=strict)

    @server.tool
    def present(artifact: str, presentation: Spec, ctx: Context) -> Report:
        """Present the artifact."""
        CALLS.append("present")
        return Report(total=1, at=datetime(2024, 1, 1, tzinfo=timezone.utc))

    @server.tool
    def count(n: Annotated[int, "how many"], step: int = 1) -> int:
        """Count to `n`."""
        CALLS.append("count")
        return n

    return server


def by_name(server):
    return {t.name: t for t in tools_from_object(server, "t:server")}


def test_fastmcp_listing_vs_signature():
    tools = by_name(build())
    present = tools["present"]
    # what fastmcp's tools/list did to the signature: ctx gone, titles pruned, $defs inlined,
    # additionalProperties false added at the root
    assert present.advertised == {
        "additionalProperties": False,
        "properties": {
            "artifact": {"type": "string"},
            "presentation": {
                "properties": {"x": {"type": "integer"}, "label": {"default": "a", "type": "string"}},
                "required": ["x"],
                "type": "object",
            },
        },
        "required": ["artifact", "presentation"],
        "type": "object",
    }
    assert present.origin.format == "mcp-server"
    rt = present.runtime
    assert rt.refused_when_omitted == ("/artifact", "/presentation", "/presentation/x")
    assert "ctx" not in rt.input["properties"]
    assert tools["count"].advertised["properties"]["n"] == {"description": "how many", "type": "integer"}


def test_fastmcp_validation_without_body_and_extra_keys_refused():
    CALLS.clear()
    tools = by_name(build())
    validate = tools["present"].runtime.validate
    validate({"artifact": "a", "presentation": {"x": 1}})
    with pytest.raises(Exception, match="presentation"):
        validate({"artifact": "a"})
    with pytest.raises(Exception, match="unexpected"):
        validate({"artifact": "a", "presentation": {"x": 1}, "name": "n"})
    tools["count"].runtime.validate({"n": 2})
    assert CALLS == []  # the bodies never ran


def test_fastmcp_strict_input_validation_mode():
    lax = by_name(build(strict=False))["count"].runtime.validate
    strict = by_name(build(strict=True))["count"].runtime.validate
    lax({"n": "10"})  # lax pydantic coerces the string
    with pytest.raises(Exception, match="int"):
        strict({"n": "10"})
    strict({"n": 10})


def test_fastmcp_output_side():
    import jsonschema
    from fastmcp import Client

    from schemalint.loaders.python.framework_common import run_async

    server = build()
    tools = by_name(server)
    present, count = tools["present"], tools["count"]
    # fastmcp (unlike the official SDK) advertises outputSchema in serialization mode, with
    # field names: the serializer's float for `at`, `note` not its serialization alias
    assert present.output_schema["properties"]["at"]["type"] == "number"
    assert set(present.runtime.output["properties"]) == {"total", "note", "at"}
    assert present.runtime.output["properties"]["at"]["type"] == "number"

    async def call():
        async with Client(server) as client:
            result = await client.call_tool(
                "present", {"artifact": "a", "presentation": {"x": 1}}, raise_on_error=False
            )
            return result.structured_content

    structured = run_async(call, 30)
    assert structured == {"total": 1, "note": "ok", "at": 1704067200.0}
    jsonschema.validate(structured, present.runtime.output)
    jsonschema.validate(structured, present.output_schema)
    # a scalar return is wrapped in {"result": ...} on both sides
    assert count.output_schema["x-fastmcp-wrap-result"] is True
    assert count.runtime.output["required"] == ["result"]
    assert count.runtime.output["properties"]["result"]["type"] == "integer"
