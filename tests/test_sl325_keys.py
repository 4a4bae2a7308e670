"""SL325's one-regex fast path (all of a tool's root keys joined by newlines) must report exactly
the keys the per-key test reports, also for keys that hold a newline themselves (found by a
fresh-user fuzz run: ``"a\\nb"`` read as two good keys)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemalint import api
from schemalint.rules.provider.sl325_property_key_pattern import KEY
from tests.conftest import examples


def _reported(tmp: Path, keys: list[str]) -> int:
    schema = {"type": "object", "properties": {k: {"type": "string"} for k in keys}}
    path = tmp / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "t", "description": "d", "input_schema": schema}]}))
    result = api.check([str(path)], select=["SL325"])
    return sum(d.code == "SL325" for d in result.diagnostics)


def test_a_key_with_an_interior_newline_is_reported(tmp_path: Path) -> None:
    assert _reported(tmp_path, ["a\nb"]) == 1
    assert _reported(tmp_path, ["good", "a\nb", "also_good"]) == 1
    assert _reported(tmp_path, ["good", "fine-too"]) == 0


_PARTS = st.lists(st.sampled_from(["ab", "x-y.z", "k" * 63, ""]), min_size=1, max_size=3)
_KEYS = st.builds(lambda parts, sep: sep.join(parts), _PARTS, st.sampled_from(["\n", "", "_", "\n", " [", "é"]))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_KEYS, min_size=1, max_size=5, unique=True))
def test_the_fast_path_reports_what_the_per_key_test_reports(tmp_path: Path, keys: list[str]) -> None:
    assert _reported(tmp_path, keys) == sum(KEY.fullmatch(k) is None for k in keys)
