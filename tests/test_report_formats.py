"""Every ``--format`` name a command offers has its renderer: the format lists (``CheckFormat``,
``DiffFormat``, ``ViewFormat``) are the one place a format is named, and each name must lead to a
module with the function for that kind of result, which renders a real result. A new format is
one reporter module plus its name in the list; this test then says what it still lacks."""

from __future__ import annotations

import io
from pathlib import Path
from typing import get_args

import pytest

from schemalint.report import DIFF_FORMATS, REPORTERS, VIEW_FORMATS, CheckFormat, get_reporter

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", get_args(CheckFormat))
def test_every_check_format_renders_a_check_result(name: str) -> None:
    from schemalint.api import check

    result = check([str(ROOT / "examples" / "openai")])
    out = io.StringIO()
    get_reporter(name)(result, out)
    assert out.getvalue().strip(), name


@pytest.mark.parametrize(("names", "kind"), [(DIFF_FORMATS, "render_diff"), (VIEW_FORMATS, "render_shows"),
                                              (VIEW_FORMATS, "render_probe")])
def test_every_format_of_a_kind_has_its_function(names: tuple[str, ...], kind: str) -> None:
    for name in names:
        assert name in REPORTERS, f"format {name!r} has no reporter module"
        assert callable(get_reporter(name, kind)), (name, kind)


def test_the_registry_holds_no_format_without_a_choice() -> None:
    assert set(REPORTERS) == set(get_args(CheckFormat)) | set(DIFF_FORMATS) | set(VIEW_FORMATS)
