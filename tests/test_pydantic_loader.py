"""The module:attr loader and the pydantic recognizer, on real pydantic models."""

from __future__ import annotations

import itertools
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check, load
from schemalint.errors import SourceError
from schemalint.loaders.python.python_source import RECOGNIZERS, load_python_source
from schemalint.model import Tool
from schemalint.schema.draft7 import draft7_gaps, to_draft7
from tests._fixtures_cli import run_cli_here
from tests.conftest import ROOT, load_case, needs_shared

EXAMPLES = str(ROOT / "examples" / "pydantic")
_counter = itertools.count()


def write_module(tmp_path: Path, source: str) -> str:
    """Write ``source`` as a uniquely named module in ``tmp_path``; return its name."""
    name = f"sl_tmpmod_{next(_counter)}_{abs(hash(str(tmp_path))) % 10**6}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
    return name


@pytest.fixture(scope="module")
def shop() -> dict[str, Tool]:
    tools = load_python_source("shop_tools:", [EXAMPLES])
    return {t.name: t for t in tools}


def required(schema: Any, *path: str) -> set[str]:
    """The ``required`` set of the object at ``path`` (property names), following local refs."""
    node = schema
    for key in path:
        node = node["properties"][key]
        if "$ref" in node:
            node = schema["definitions"][node["$ref"].rsplit("/", 1)[-1]]
    return set(node.get("required", []))


# ------------------------------------------------------------------ import and expansion


def test_recognizer_interface_is_a_tuple_of_module_function_names() -> None:
    assert isinstance(RECOGNIZERS, tuple)
    assert "schemalint.loaders.python.pydantic_models:tools_from_object" in RECOGNIZERS


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("import no_such_module_xyz\n", "ModuleNotFoundError"),
        ("def broken(:\n", "SyntaxError"),
        ("raise RuntimeError('config missing: API_KEY')\n",
         "RuntimeError raised while importing: config missing"),
        ("import sys\nsys.exit(3)\n", "SystemExit"),
    ],
)
def test_import_failures_are_source_errors_naming_module_and_error(tmp_path: Path, body: str,
                                                                   expected: str) -> None:
    name = write_module(tmp_path, body)
    with pytest.raises(SourceError) as info:
        load_python_source(f"{name}:Tool", [str(tmp_path)])
    assert name in str(info.value)
    assert expected in str(info.value)


def test_a_missing_dependency_is_named_as_one(tmp_path: Path) -> None:
    # the module exists but imports a package that is not installed: "add its folder" alone sent a
    # new user looking for a folder of their project (claude-quickstarts' agents needing `anthropic`)
    name = write_module(tmp_path, "import sl_absent_dependency_xyz\n")
    with pytest.raises(SourceError) as info:
        load_python_source(f"{name}:Tool", [str(tmp_path)])
    assert "`sl_absent_dependency_xyz` is imported by the module: install it in the environment" in str(info.value)
    with pytest.raises(SourceError) as info:  # the module itself not found: its folder is what is missing
        load_python_source("sl_absent_mod:X", [])
    assert str(info.value).endswith("; add its folder with --python-path")


def test_missing_module_and_attribute(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"sl_absent_mod.*ModuleNotFoundError.*--python-path"):
        load_python_source("sl_absent_mod:X", [])
    name = write_module(tmp_path, "X = 1\n")
    with pytest.raises(SourceError, match="has no attribute 'Nope'"):
        load_python_source(f"{name}:Nope", [str(tmp_path)])
    with pytest.raises(SourceError, match="not a tool source"):
        load_python_source(f"{name}:X", [str(tmp_path)])


def test_cli_import_error_is_exit_2_without_traceback(tmp_path: Path) -> None:
    name = write_module(tmp_path, "raise ValueError('boom at import')\n")
    proc = run_cli_here("check", f"{name}:M", "--python-path", str(tmp_path))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert name in proc.stderr and "ValueError" in proc.stderr and "boom at import" in proc.stderr
    proc = run_cli_here("probe", "sl_absent_mod_cli:M")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "sl_absent_mod_cli" in proc.stderr


def test_python_path_is_only_prepended_during_import(tmp_path: Path) -> None:
    before = list(sys.path)
    name = write_module(tmp_path, "from pydantic import BaseModel\nclass A(BaseModel):\n    x: int\n")
    tools = load_python_source(f"{name}:A", [str(tmp_path)])
    assert [t.name for t in tools] == ["A"]
    assert sys.path == before


def test_module_expansion_skips_parts_helpers_and_imports(shop: dict[str, Tool]) -> None:
    assert set(shop) == {
        "CreateCoupon", "CreateCouponClean", "SearchProducts", "SearchProductsClean", "TrackParcel",
        "TrackParcelClean", "SetStock", "SetStockClean", "RefundOrder", "RefundOrderClean", "ShipOrder",
        "ShipOrderClean", "GetOrder", "cancel_order", "cancel_order_clean", "list_orders",
    }  # Address/AddressClean are field types (parts), _drop_* helpers are plain functions


def test_models_handed_to_a_tool_declaration_as_its_schema_are_not_tools(tmp_path: Path) -> None:
    """A model whose schema the module's code hands to a tool declared with its own name and description
    (`input_schema=M.model_json_schema()` in a list handler, `"parameters": M.model_json_schema()`) is an
    input schema: loaded as a tool it had the class name and an empty description (a false SL007).
    Its twin, a model of the same module used no such way, is still a tool; named directly, so is it."""
    body = """
        from pydantic import BaseModel

        class Lookup(BaseModel):
            key: str

        class Rename(BaseModel):
            old: str
            new: str

        class Archive(BaseModel):
            key: str

        def list_tools():
            return [dict(name="lookup", description="Find a key.", input_schema=Lookup.model_json_schema()),
                    {"name": "rename", "description": "Rename a key.", "parameters": Rename.model_json_schema()}]
    """
    name = write_module(tmp_path, body)
    assert [t.name for t in load_python_source(f"{name}:", [str(tmp_path)])] == ["Archive"]
    assert [t.name for t in load_python_source(f"{name}:Lookup", [str(tmp_path)])] == ["Lookup"]
    only = write_module(tmp_path, body.replace("class Archive(BaseModel):\n            key: str\n", ""))
    with pytest.raises(SourceError, match=r"models \(Lookup, Rename\) are the input schemas.*--mcp-stdio"):
        load_python_source(f"{only}:", [str(tmp_path)])


def test_a_module_that_declares_mcp_tools_by_hand_has_models_as_data(tmp_path: Path) -> None:
    """A low-level MCP server's module declares its tools in code (`Tool(name=..., inputSchema={...})`
    in a list handler); its models are results and arguments, not tools. Twin: the same models in a
    module that declares no tool are tools."""
    models = """
        from pydantic import BaseModel

        class Clock(BaseModel):
            zone: str
            iso: str
    """
    handler = models + """
        def list_tools(Tool=dict):
            return [Tool(name="now", description="The time.", inputSchema={"type": "object"})]
    """
    name = write_module(tmp_path, handler)
    with pytest.raises(SourceError, match=r"declares MCP tools by hand.*--mcp-stdio"):
        load_python_source(f"{name}:", [str(tmp_path)])
    assert [t.name for t in load_python_source(f"{name}:Clock", [str(tmp_path)])] == ["Clock"]
    plain = write_module(tmp_path, models)
    assert [t.name for t in load_python_source(f"{plain}:", [str(tmp_path)])] == ["Clock"]


def test_containers_and_explicit_functions(tmp_path: Path) -> None:
    name = write_module(tmp_path, """
        from pydantic import BaseModel

        class A(BaseModel):
            x: int

        def helper(q: str, n: int = 3) -> None:
            '''Look something up.'''
            raise RuntimeError("never run")

        TOOLS = [A, helper]
        BY_NAME = {"a": A}
        NOT_TOOLS = [1, "x", A]
    """)
    roots = [str(tmp_path)]
    assert [t.name for t in load_python_source(f"{name}:TOOLS", roots)] == ["A", "helper"]
    assert [t.name for t in load_python_source(f"{name}:BY_NAME", roots)] == ["A"]
    assert [t.name for t in load_python_source(f"{name}:NOT_TOOLS", roots)] == ["A"]
    (fn,) = load_python_source(f"{name}:helper", roots)
    assert fn.description == "Look something up."
    assert fn.advertised["required"] == ["q"]
    assert fn.origin.file == f"{name}:helper" and fn.origin.format == "pydantic"
    assert fn.runtime is not None and fn.runtime.validate is not None
    fn.runtime.validate({"q": "x"})  # the body would raise RuntimeError: only arguments are validated
    assert fn.runtime.refused_when_omitted == ("/q",)


def test_model_without_json_schema_is_located_sl000_and_others_still_load(tmp_path: Path) -> None:
    name = write_module(tmp_path, """
        from pydantic import BaseModel, ConfigDict, validate_call
        from pydantic.json_schema import SkipJsonSchema

        class Opaque:
            pass

        class Broken(BaseModel):
            model_config = ConfigDict(arbitrary_types_allowed=True)
            thing: Opaque

        @validate_call
        def hidden_arg(order_id: str, reason: SkipJsonSchema[str]) -> None:
            pass

        class Fine(BaseModel):
            x: int

        __all__ = ["Broken", "hidden_arg", "Fine"]
    """)
    loaded = load([f"{name}:"], python_path=[str(tmp_path)])
    assert [t.name for t in loaded.tools] == ["Fine"]
    problems = {d.file: d for d in loaded.diagnostics}
    assert set(problems) == {f"{name}:Broken", f"{name}:hidden_arg"}
    broken = problems[f"{name}:Broken"]
    assert broken.code == "SL000" and "model Broken cannot produce a JSON schema" in broken.message
    assert f"{name}.py:" in broken.message  # the definition is located
    assert "PydanticOmit" in problems[f"{name}:hidden_arg"].message


def test_recursive_model_loads_and_probes(tmp_path: Path) -> None:
    name = write_module(tmp_path, """
        from __future__ import annotations
        from pydantic import BaseModel

        class Node(BaseModel):
            '''A tree.'''
            label: str
            children: list[Node] = []
            parent: Node | None = None
    """)
    (tool,) = load_python_source(f"{name}:Node", [str(tmp_path)])
    assert tool.advertised["$ref"] == "#/definitions/Node"
    assert tool.runtime is not None
    # one level of recursion is filled in; `parent` takes its default (null)
    assert tool.runtime.refused_when_omitted == (
        "/children/*/children/*/label", "/children/*/label", "/label")
    result = check([f"{name}:Node"], python_path=[str(tmp_path)])
    assert result.diagnostics == []


# ------------------------------------------------------------------ draft-07 rendering


def test_to_draft7_converts_defs_prefix_items_and_dependent_required() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"P": {"type": "array", "prefixItems": [{"type": "integer"}, {"$ref": "#/$defs/Q"}],
                        "items": False}, "Q": {"type": "string"}},
        "properties": {"p": {"$ref": "#/$defs/P"}, "$defs": {"type": "string"}},
        "dependentRequired": {"a": ["b"]},
        "unevaluatedProperties": False,
    }
    out = to_draft7(schema).schema
    assert out["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert "$defs" not in out and set(out["definitions"]) == {"P", "Q"}
    assert out["definitions"]["P"]["items"] == [{"type": "integer"}, {"$ref": "#/definitions/Q"}]
    assert out["definitions"]["P"]["additionalItems"] is False
    assert out["properties"]["p"] == {"$ref": "#/definitions/P"}
    assert out["properties"]["$defs"] == {"type": "string"}  # a property named $defs is a property
    assert out["dependencies"] == {"a": ["b"]}
    assert draft7_gaps(out) == [("/unevaluatedProperties", "unevaluatedProperties")]
    assert schema["$defs"]["P"]["prefixItems"]  # input untouched


def test_pydantic_tuple_field_is_advertised_as_draft7(tmp_path: Path) -> None:
    name = write_module(tmp_path, """
        from pydantic import BaseModel
        class Move(BaseModel):
            to: tuple[int, int]
    """)
    (tool,) = load_python_source(f"{name}:Move", [str(tmp_path)])
    to = tool.advertised["properties"]["to"]
    assert to["items"] == [{"type": "integer"}, {"type": "integer"}] and "prefixItems" not in to


# ------------------------------------------------------------------ contracts of the examples


def test_hidden_but_required_field(shop: dict[str, Tool]) -> None:
    bad, good = shop["CreateCoupon"], shop["CreateCouponClean"]
    assert "channel" not in bad.advertised["properties"]
    assert bad.runtime is not None and good.runtime is not None
    assert "channel" in bad.runtime.input["properties"]
    assert required(bad.advertised) == {"code", "percent_off"}
    assert required(bad.runtime.input) == {"code", "percent_off", "channel"}
    assert "/channel" in bad.runtime.refused_when_omitted
    assert required(good.runtime.input) == {"code", "percent_off"}
    assert "/channel" not in good.runtime.refused_when_omitted


def test_json_schema_extra_edits_do_not_change_runtime(shop: dict[str, Tool]) -> None:
    search = shop["SearchProducts"]
    assert search.runtime is not None
    assert required(search.advertised) == {"query"}
    assert required(search.runtime.input) == {"query", "category"}
    assert search.runtime.refused_when_omitted == ("/category", "/query")
    track = shop["TrackParcel"]
    assert track.runtime is not None
    assert "carrier" not in track.advertised["properties"]
    assert track.runtime.input["properties"]["carrier"]["enum"] == ["ups", "dhl", "postnl"]
    assert track.runtime.refused_when_omitted == ("/carrier", "/tracking_number")
    clean = shop["SearchProductsClean"]
    assert clean.runtime is not None
    assert "examples" in clean.advertised and "examples" not in clean.runtime.input
    assert required(clean.advertised) == required(clean.runtime.input) == {"query", "category"}


def test_with_json_schema_override_is_not_the_runtime_type(shop: dict[str, Tool]) -> None:
    bad = shop["SetStock"]
    assert bad.runtime is not None
    assert bad.advertised["properties"]["quantity"]["type"] == "string"
    assert bad.runtime.input["properties"]["quantity"]["type"] == "integer"
    good = shop["SetStockClean"]
    assert good.runtime is not None
    assert good.advertised["properties"]["quantity"]["type"] == "integer"
    assert good.runtime.input["properties"]["quantity"]["minimum"] == 0


def test_nested_fault_one_level_down(shop: dict[str, Tool]) -> None:
    bad, good = shop["ShipOrder"], shop["ShipOrderClean"]
    assert bad.runtime is not None and good.runtime is not None
    assert required(bad.advertised, "address") == {"street", "city"}
    assert required(bad.runtime.input, "address") == {"street", "city", "postcode"}
    assert "/address/postcode" in bad.runtime.refused_when_omitted
    assert required(good.advertised, "address") == required(good.runtime.input, "address")
    assert "/address/postcode" not in good.runtime.refused_when_omitted


def test_aliases_are_the_accepted_keys(shop: dict[str, Tool]) -> None:
    tool = shop["GetOrder"]
    assert tool.runtime is not None
    assert list(tool.advertised["properties"]) == ["orderId", "includeLines"]
    assert required(tool.runtime.input) == {"orderId"}
    assert tool.runtime.refused_when_omitted == ("/orderId",)
    assert list(tool.runtime.output["properties"]) == ["orderId", "includeLines"]


def test_origin_description_and_definition_site(shop: dict[str, Tool]) -> None:
    tool = shop["ShipOrder"]
    assert tool.origin.file == "shop_tools:ShipOrder"
    assert tool.origin.pointer == "" and tool.origin.format == "pydantic"
    assert tool.description == "Ship an order to an address."
    text = (ROOT / "examples/pydantic/shop_tools.py").read_text().splitlines()
    assert tool.origin.line is not None and text[tool.origin.line - 1].startswith("class ShipOrder(")
    assert tool.origin.path == "examples/pydantic/shop_tools.py" and tool.origin.path_line == tool.origin.line
    assert tool.raw is not None and "defined_at" not in tool.raw["x-schemalint"]  # never snapshotted


def test_functions_validate_arguments_without_running_the_body(shop: dict[str, Tool]) -> None:
    tool = shop["list_orders"]
    assert tool.runtime is not None and tool.runtime.validate is not None
    tool.runtime.validate({"status": "shipped"})  # the body raises RuntimeError
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        tool.runtime.validate({"status": "lost"})
    assert tool.runtime.refused_when_omitted == ()
    assert tool.advertised["additionalProperties"] is False


# ------------------------------------------------------------------ shared cases


def _case_tool(tmp_path: Path, case: dict[str, Any], attr: str) -> Tool:
    name = write_module(tmp_path, case["python"])
    (tool,) = load_python_source(f"{name}:{attr}", [str(tmp_path)])
    return tool


@needs_shared
def test_case_020_validation_alias_through_real_pydantic(tmp_path: Path) -> None:
    case = load_case("020")
    tool = _case_tool(tmp_path, case, "ConvertArgs")
    assert tool.runtime is not None and tool.runtime.validate is not None
    # pydantic itself advertises the alias, so pydantic's own schema and runtime agree ...
    assert required(tool.advertised) == required(case["tools"]["runtime_input"]) == {"ext"}
    assert required(tool.runtime.input) == {"ext"}
    assert list(tool.runtime.output["properties"]) == list(case["tools"]["runtime_output"]["properties"])
    assert tool.runtime.refused_when_omitted == ("/ext",)
    # The case's model has no docstring (SL007, a warning); no contract finding.
    assert [d.code for d in check([tool.origin.file], python_path=[str(tmp_path)]).diagnostics] in ([], ["SL007"])
    # ... while the field name a model may take from elsewhere is refused,
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        tool.runtime.validate({"file_suffix": "pdf"})
    # and the schema LangChain advertised (no properties) is refused by the real validator (SL107).
    from schemalint.rules.base import Context
    from schemalint.rules.contract.sl107_probe_refusal import ProbeRefusal

    langchain = Tool(tool.name, tool.description, case["tools"]["advertised"], tool.origin, "", tool.runtime)
    found = list(ProbeRefusal().check_tool(langchain, Context()))
    assert [(d.code, d.instance_path) for d in found] == [("SL107", "/ext")]
    assert "`/ext`" in found[0].message and "Field required" in found[0].message


@needs_shared
def test_case_030_clean_default_same_in_both_modes(tmp_path: Path) -> None:
    case = load_case("030")
    tool = _case_tool(tmp_path, case, "SearchDocs")
    assert tool.runtime is not None
    for side in ("advertised", "runtime_input", "runtime_output"):
        assert required(case["tools"][side]) == {"query"}
    assert required(tool.advertised) == required(tool.runtime.input) == {"query"}
    assert required(tool.runtime.output) == {"query"}
    assert tool.advertised["properties"]["limit"]["default"] == 10
    assert tool.runtime.refused_when_omitted == ("/query",)
    # The case's model has no docstring (SL007, a warning); no contract finding.
    assert [d.code for d in check([tool.origin.file], python_path=[str(tmp_path)]).diagnostics] in ([], ["SL007"])
