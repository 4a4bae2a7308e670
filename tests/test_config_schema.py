"""The JSON Schema of the configuration shipped in the package (schemalint/config.schema.json):
its keys are the keys config.py accepts, this repository's own configuration and
docs/configuration.md's example validate, and a misspelt key does not (issue 32)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import jsonschema

from schemalint.config import EXTRA_KEYS, TOP_LEVEL_KEYS
from tests.conftest import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SCHEMA = json.loads((ROOT / "schemalint" / "config.schema.json").read_text())


def test_schema_is_valid_and_names_every_key() -> None:
    jsonschema.Draft7Validator.check_schema(SCHEMA)
    assert set(SCHEMA["properties"]) == {*TOP_LEVEL_KEYS, *EXTRA_KEYS}
    assert SCHEMA["additionalProperties"] is False


def test_real_configurations_validate_and_typos_do_not(tmp_path: Path) -> None:
    own = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["schemalint"]
    jsonschema.validate(own, SCHEMA)
    doc = (ROOT / "schemalint" / "config.py").read_text()
    example = re.search(r"\[tool\.schemalint\]\n(.*?)\n\nRule selection", doc, re.S)
    assert example is not None
    table = tomllib.loads("[tool.schemalint]\n" + example.group(1))["tool"]["schemalint"]
    jsonschema.validate(table, SCHEMA)
    validator = jsonschema.Draft7Validator(SCHEMA)
    assert list(validator.iter_errors({**own, "source": ["x"]}))  # misspelt key
    assert list(validator.iter_errors({"per-file-ignores": [{"rules": ["SL2"]}]}))  # no reason


def test_the_wheel_and_the_package_carry_it() -> None:
    import schemalint

    assert (Path(schemalint.__file__).parent / "config.schema.json").is_file()
