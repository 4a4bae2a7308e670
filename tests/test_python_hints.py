"""A Python project named as a folder or a file: the note or error names the module:attr source
(schemalint/loaders/files/python_hints.py). The files are read as text; nothing is imported."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import cli

SERVER = '''\
from mcp.server.fastmcp import FastMCP

mcp: FastMCP = FastMCP("Inventory")


@mcp.tool()
def count(sku: str) -> int:
    """How many items of a SKU are in stock."""
    return 0
'''

MAIN = '''\
from inventory.server import mcp

if __name__ == "__main__":
    mcp.run()
'''


def _project(root: Path) -> Path:
    package = root / "src" / "inventory"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "server.py").write_text(SERVER)
    (package / "main.py").write_text(MAIN)
    (root / "tests").mkdir()
    (root / "tests" / "test_server.py").write_text("from inventory.server import mcp\nmcp2 = FastMCP('t')\n")
    return root


def test_a_folder_of_python_modules_names_the_source_to_give(tmp_path: Path) -> None:
    project = _project(tmp_path)
    proc = cli("check", ".", cwd=project)
    assert proc.returncode == 0
    out = proc.stdout + proc.stderr
    assert "no tool definitions found in ." in out
    assert ". holds 1 Python module(s) that define tools, servers or models" in out, out
    assert "e.g. schemalint check inventory.server:mcp --python-path src" in out


def test_a_python_file_named_as_a_source_is_not_parsed_as_json(tmp_path: Path) -> None:
    project = _project(tmp_path)
    proc = cli("check", "src/inventory/server.py", cwd=project)
    assert proc.returncode == 2
    assert "invalid JSON" not in proc.stderr and "SL000" not in proc.stdout
    assert "src/inventory/server.py is a Python file" in proc.stderr
    assert "try: schemalint check inventory.server:mcp --python-path src (it creates that object" in proc.stderr
    # a file that only imports the server: the object found nearby is named
    proc = cli("check", "src/inventory/main.py", cwd=project)
    assert proc.returncode == 2
    assert "inventory.main:OBJECT --python-path src" in proc.stderr
    assert "inventory.server:mcp --python-path src names one found under src" in proc.stderr, proc.stderr


OWN_SERVER_CLASS = '''\
from fastmcp import FastMCP
from pydantic import BaseModel


class Entry(BaseModel):
    content: str


class VectorMCPServer(FastMCP):
    def __init__(self, settings):
        super().__init__(name="vectors")
        self.tool(self.find, name="find")
'''


def test_an_instance_of_the_projects_own_server_class_is_the_source(tmp_path: Path) -> None:
    """qdrant/mcp-server-qdrant: `mcp = QdrantMCPServer(...)` in server.py, the class (a FastMCP
    subclass) and the project's pydantic models in another module; the note named a model."""
    package = tmp_path / "src" / "vectors"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "mcp_server.py").write_text(OWN_SERVER_CLASS)
    (package / "server.py").write_text("from vectors.mcp_server import VectorMCPServer\n\n"
                                       "mcp = VectorMCPServer(settings=None)\n")
    folder = cli("check", ".", cwd=tmp_path)
    out = folder.stdout + folder.stderr
    assert "e.g. schemalint check vectors.server:mcp --python-path src" in out, out
    proc = cli("check", "src/vectors/server.py", cwd=tmp_path)
    assert "try: schemalint check vectors.server:mcp --python-path src (it creates that object" in proc.stderr


def test_a_namespace_package_that_imports_itself_is_named_from_its_parent(tmp_path: Path) -> None:
    """A package folder without ``__init__.py`` (PEP 420) whose server imports a sibling through the
    package name: `server:mcp --python-path src/ledger` fails at that import, the parent is the root."""
    package = tmp_path / "src" / "ledger"
    package.mkdir(parents=True)
    (package / "rates.py").write_text("RATE = 1\n")
    (package / "server.py").write_text("from ledger.rates import RATE\n" + SERVER)
    proc = cli("check", ".", cwd=tmp_path)
    assert "e.g. schemalint check ledger.server:mcp --python-path src" in proc.stdout + proc.stderr
    proc = cli("check", "src/ledger/server.py", cwd=tmp_path)
    assert "try: schemalint check ledger.server:mcp --python-path src (" in proc.stderr


def test_a_folder_named_after_an_imported_library_stays_the_root(tmp_path: Path) -> None:
    """Twins: a folder named `mcp` whose server imports the `mcp` library (`mcp.server...` is the
    module itself), and a plain folder of scripts with no self-import, keep their own folder as root."""
    for name, head in (("mcp", ""), ("scripts", "import json\n")):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "server.py").write_text(head + SERVER)
        proc = cli("check", f"{name}/server.py", cwd=tmp_path)
        assert f"try: schemalint check server:mcp --python-path {name} (" in proc.stderr, proc.stderr


def test_functions_decorated_with_an_imported_bare_tool_name_the_module(tmp_path: Path) -> None:
    """`@tool` from a framework (LangChain's `langchain_core.tools.tool`) makes each function a tool at
    module level: the source is the module (`helpers:`), ahead of a pydantic model elsewhere. Twin: a
    local decorator that happens to be called `tool` (not imported) is not taken for one."""
    (tmp_path / "helpers.py").write_text(
        "from langchain_core.tools import tool\n\n\n@tool\ndef stock_price(symbol: str) -> float:\n"
        '    """The last price of a ticker."""\n    return 0.0\n')
    (tmp_path / "a_models.py").write_text("from pydantic import BaseModel\n\n\nclass Row(BaseModel):\n    x: int\n")
    proc = cli("check", ".", cwd=tmp_path)
    assert "e.g. schemalint check helpers:" in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    proc = cli("check", "helpers.py", cwd=tmp_path)
    assert "try: schemalint check helpers: (its functions decorated with @tool are the tools)" in proc.stderr
    (tmp_path / "helpers.py").write_text("def tool(f):\n    return f\n\n\n@tool\ndef ping() -> None:\n    pass\n")
    proc = cli("check", ".", cwd=tmp_path)
    assert "e.g. schemalint check a_models:Row" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def _named_file(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text)
    proc = cli("check", name, cwd=tmp_path)
    assert proc.returncode == 2 and f"{name} is a Python file" in proc.stderr, proc.stderr
    return proc.stderr


LANGCHAIN = ("from langchain_core.tools import tool\n\n"
             "@tool\ndef add(a: int, b: int) -> int:\n    '''Add.'''\n    return a\n")


def test_a_python_file_names_the_extra_its_missing_framework_needs(tmp_path: Path, monkeypatch) -> None:
    """The advice follows what the file imports: a missing framework gets its own extra (never
    [mcp] for a langchain or pydantic module); a module of nobody's extra is named as the
    project's own dependency. A `None` in ``sys.modules`` is Python's documented way to make a
    module unimportable, so the check runs as in an environment without it."""
    import sys

    monkeypatch.setitem(sys.modules, "langchain_core", None)
    monkeypatch.setitem(sys.modules, "pydantic", None)
    err = _named_file(tmp_path, "lc_tools.py", LANGCHAIN)
    assert "It imports `langchain_core`, not installed here" in err
    assert "(schemalint's [langchain] extra)" in err and "[mcp]" not in err
    err = _named_file(tmp_path, "models.py", "from pydantic import BaseModel\nimport acme_internal_sdk\n\n"
                                             "class Args(BaseModel):\n    x: int\n")
    assert "It imports `pydantic`, `acme_internal_sdk`, not installed here" in err
    assert "(schemalint's [pydantic] extra)" in err and "[mcp]" not in err
    assert "the project's own dependencies (`acme_internal_sdk`: no schemalint extra brings it)" in err


def test_a_python_file_whose_imports_resolve_names_no_extra(tmp_path: Path) -> None:
    """Installed frameworks, the standard library and the project's own modules beside the file
    need nothing installed: no extra, no `pip install`."""
    (tmp_path / "helpers.py").write_text("X = 1\n")
    err = _named_file(tmp_path, "lc_tools.py", "import json\nimport helpers\n" + LANGCHAIN)
    assert "Run it in the project's environment (where its own imports resolve)" in err
    assert "extra" not in err and "pip install" not in err
    err = _named_file(tmp_path, "own.py", "import acme_internal_sdk\nfrom . import sibling\n\nclass Args:\n    pass\n")
    assert "It imports `acme_internal_sdk`, not installed here" in err and "extra brings it" in err
    assert "[mcp]" not in err and "pip install" not in err
