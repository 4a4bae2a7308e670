"""Lazy rule loading (issue 9): the static catalog, and a check that imports only the rules it needs.

``schemalint.rules.catalog.CATALOG`` must list every rule module's class (its code, name and
targets are written there only, and each family's ``RULES`` is read from it), and a
check that imports only the rules able to report on the loaded tools must give the same
diagnostics as one that runs every rule.
"""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from schemalint.api import CheckResult, check, load
from schemalint.config import Config
from schemalint.engine.selection import build_filter
from schemalint.rules.base import Context, Rule
from schemalint.rules.catalog import CATALOG
from schemalint.rules.registry import AllRules, all_rules, find_rule, rules_for_run
from schemalint.targets import PROFILES, parse_targets
from tests.conftest import ROOT

FAMILIES = ("shape", "contract", "description", "provider", "traffic", "poisoning")


def family_rules() -> dict[str, tuple[type[Rule], ...]]:
    import importlib

    return {fam: importlib.import_module(f"schemalint.rules.{fam}").RULES for fam in FAMILIES}


def path_of(cls: type[Rule]) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def row(cls: type[Rule]) -> tuple[str, str, tuple[str, ...], str]:
    return cls.code, cls.name, tuple(cls.targets), path_of(cls)


def rule_classes_in_modules() -> list[type[Rule]]:
    """Every Rule subclass defined in a rule module file ``schemalint/rules/<family>/sl*.py``."""
    import importlib
    import inspect

    found = []
    for fam in FAMILIES:
        for path in sorted((ROOT / "schemalint" / "rules" / fam).glob("sl*.py")):
            module = importlib.import_module(f"schemalint.rules.{fam}.{path.stem}")
            found.extend(cls for _, cls in inspect.getmembers(module, inspect.isclass)
                         if issubclass(cls, Rule) and cls.__module__ == module.__name__)
    return found


def test_catalog_lists_every_rule_module_and_is_the_source_of_its_metadata() -> None:
    classes = rule_classes_in_modules()
    listed = {e.path for e in CATALOG}
    missing = [path_of(cls) for cls in classes if path_of(cls) not in listed]
    assert not missing, ("add these rules to schemalint/rules/catalog.py: "
                         + "; ".join(f"RuleEntry('SLxxx', 'rule-name', (), {p!r})" for p in missing))
    assert sorted(path_of(cls) for cls in classes) == sorted(listed)
    for cls in classes:  # the class reads code, name and targets from its row; it writes none of them
        entry = next(e for e in CATALOG if e.path == path_of(cls))
        assert (cls.code, cls.name, cls.targets) == (entry.code, entry.name, entry.targets)
        body = ast.parse(inspect.getsource(cls)).body[0]
        assert isinstance(body, ast.ClassDef)
        written = {t.id for st in body.body if isinstance(st, (ast.Assign, ast.AnnAssign))
                   for t in (st.targets if isinstance(st, ast.Assign) else [st.target]) if isinstance(t, ast.Name)}
        assert not written & {"code", "name", "targets"}, f"{entry.code}: written in catalog.py only"
    actual = [(e.code, e.name, e.targets, e.path) for e in CATALOG]
    expected = sorted((row(cls) for cls in classes), key=lambda r: r[0])
    assert actual == expected
    codes = [e.code for e in CATALOG]
    assert codes == sorted(set(codes)), "CATALOG must be ordered by code, each code once"
    families = family_rules()
    for fam, rules in families.items():
        # each family's RULES is its part of the catalog, in catalog order
        assert [row(cls) for cls in rules] == [r for r in actual if r[3].startswith(f"schemalint.rules.{fam}.")]
        for entry in CATALOG:
            if entry.path.startswith(f"schemalint.rules.{fam}."):
                assert entry.runtime == (fam == "contract"), entry
    assert sum(len(rules) for rules in families.values()) == len(CATALOG)
    assert [type(r) for r in all_rules()] == [e.load() for e in CATALOG]
    assert [row(type(r)) for r in all_rules()] == expected


def test_find_rule_and_all_rules_share_instances() -> None:
    by_code = {r.code: r for r in all_rules()}
    for entry in CATALOG:
        assert find_rule(entry.code) is by_code[entry.code]
        assert find_rule(entry.name.upper()) is by_code[entry.code]
    assert find_rule("SL998") is None


def test_check_result_rules_is_every_rule() -> None:
    result = check(["examples/mcp/get_me.snap"])
    assert isinstance(result.rules, AllRules)
    assert len(result.rules) == len(CATALOG)
    assert list(result.rules) == list(all_rules())
    assert result.rules == all_rules() and result.rules[0].code == "SL000"


# ------------------------------------------------------------------ what a skipped rule would report


@pytest.fixture(scope="module")
def example_tools() -> list:
    tools = load(["examples"]).tools
    assert {t.origin.format for t in tools} >= {"mcp", "openai-chat", "anthropic", "gemini", "bedrock", "manifest"}
    assert any(t.runtime is not None for t in tools) and any(t.runtime is None for t in tools)
    return tools


def test_contract_rules_report_nothing_without_a_runtime_contract(example_tools: list) -> None:
    """The premise of ``RuleEntry.runtime``: run on tools without ``Tool.runtime``, the contract
    rules report nothing; on the tools that have one, they do report (examples/zod)."""
    plain = [t for t in example_tools if t.runtime is None]
    ctx = Context(targets=frozenset(PROFILES), catalog=plain)
    flagged = [e for e in CATALOG if e.runtime]
    assert len(flagged) == 10  # SL101-SL109 and SL110 (output-schema drift)
    for entry in flagged:
        rule = entry.load()()
        assert [d for t in plain for d in rule.check_tool(t, ctx)] == [], entry.code
        assert list(rule.check_catalog(plain, ctx)) == [], entry.code
    with_runtime = [t for t in example_tools if t.runtime is not None]
    rt_ctx = Context(catalog=with_runtime)
    assert any(d for e in flagged for t in with_runtime for d in e.load()().check_tool(t, rt_ctx))


@pytest.mark.parametrize("target", ["", "openai-strict", "gemini", "=bedrock", "=mcp,ollama"])
def test_rules_with_targets_report_nothing_outside_them(example_tools: list, target: str) -> None:
    """The premise of skipping a rule whose targets no tool is checked against: its hooks,
    called anyway, find nothing on those tools (per tool and for the whole catalog)."""
    spec = parse_targets(target.split(",") if target else [])
    ctx = Context(targets=spec.targets, replace_targets=spec.replace, catalog=example_tools)
    for entry in CATALOG:
        if not entry.targets:
            continue
        rule = entry.load()()
        outside = [t for t in example_tools if ctx.targets_for(t).isdisjoint(entry.targets)]
        assert [d for t in outside for d in rule.check_tool(t, ctx)] == [], entry.code
        assert list(rule.check_catalog(outside, ctx)) == [], entry.code


def test_rules_for_run_picks_by_profiles_and_runtime(example_tools: list) -> None:
    mcp = [t for t in example_tools if t.origin.format == "mcp"]
    every = frozenset(e.code for e in CATALOG)
    codes = [r.code for r in rules_for_run(every, mcp, Context(catalog=mcp))]
    assert codes == [e.code for e in CATALOG
                     if not e.runtime and not e.traffic and (not e.targets or "mcp" in e.targets)]
    assert not any(c.startswith("SL4") for c in codes)  # traffic rules run only in replay
    assert "SL311" not in codes and "SL101" not in codes and "SL201" in codes
    # --target adds profiles; a runtime contract brings the contract rules
    ctx = Context(targets=frozenset({"openai-strict"}), catalog=example_tools)
    codes = [r.code for r in rules_for_run(every, example_tools, ctx)]
    assert "SL311" in codes and "SL101" in codes and "SL324" not in codes
    # --target =ollama replaces the inferred profiles
    ctx = Context(targets=frozenset({"ollama"}), replace_targets=True, catalog=mcp)
    codes = [r.code for r in rules_for_run(every, mcp, ctx)]
    assert "SL324" in codes and "SL301" not in codes
    # only enabled codes, and nothing for no tools but target-free rules
    assert [r.code for r in rules_for_run({"SL001", "SL311"}, mcp, Context(catalog=mcp))] == ["SL001"]
    assert [r.code for r in rules_for_run(every, [], Context())] == [e.code for e in CATALOG
                                                                 if not e.targets and not e.runtime
                                                                 and not e.traffic]


# ------------------------------------------------------------------ same output as running every rule


def as_dicts(result: CheckResult) -> list[dict]:
    return [asdict(d) for d in result.diagnostics]


@pytest.mark.parametrize("kwargs", [
    {},
    {"targets": ["all"]},
    {"targets": ["=openai"]},
    {"targets": ["=gemini-json", "ollama"]},
    {"select": ["SL311"]},
    {"select": ["SL3"], "ignore": ["SL322"]},
    {"ignore": ["SL1"]},
])
def test_lazy_check_equals_running_every_rule(kwargs: dict) -> None:
    lazy = check(["examples"], **kwargs)
    full = check(["examples"], rules=all_rules(), **kwargs)
    assert as_dicts(lazy) == as_dicts(full)
    assert lazy.fingerprints == full.fingerprints and lazy.suppressed == full.suppressed
    assert list(lazy.rules) == list(full.rules)


def test_catalog_filter_equals_rule_filter() -> None:
    cfg = Config(select=["SL0", "ref-with-siblings"], ignore=["SL00"], extend_select=["SL2"])
    for sel in (None, ["ALL"], ["SL3"], ["SL311", "untyped-parameter"]):
        a = build_filter(cfg, select=sel, ignore=["SL301"])
        b = build_filter(cfg, select=sel, ignore=["SL301"], rules=all_rules())
        assert a.enabled == b.enabled


# ------------------------------------------------------------------ imports


def rule_modules_after(code: str) -> list[str]:
    """Rule modules (``schemalint.rules.<family>.slNNN...``) imported after running ``code``."""
    prog = (code + "\nimport sys\nprint(json.dumps(sorted(m for m in sys.modules "
            "if m.startswith('schemalint.rules.') and '.sl' in m)))")
    proc = subprocess.run([sys.executable, "-c", "import json\n" + prog], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    mods: list[str] = json.loads(proc.stdout.splitlines()[-1])
    return mods


def test_config_imports_only_the_rules_whose_options_it_sets(tmp_path: Path) -> None:
    (tmp_path / "schemalint.toml").write_text(
        'select = ["SL0", "ref-with-siblings"]\nignore = ["SL2"]\n[severity]\nSL3 = "warning"\n'
        '[options.SL321]\nopenai_max_tools = 10\n'
        '[[per-file-ignores]]\nfiles = ["x"]\nrules = ["SL101"]\nreason = "r"\n')
    mods = rule_modules_after(f"from schemalint.config import load_config\n"
                              f"cfg = load_config(start=__import__('pathlib').Path({str(tmp_path)!r}))\n"
                              "assert cfg.options == {'SL321': {'openai_max_tools': 10}}")
    assert mods == ["schemalint.rules.provider.sl321_too_many_tools"]


def test_find_rule_imports_one_rule() -> None:
    mods = rule_modules_after("from schemalint.rules.registry import find_rule\nassert find_rule('SL313')")
    assert mods == ["schemalint.rules.provider.sl313_gemini_unsupported_keyword"]


def test_family_rules_still_import_every_rule_of_the_family() -> None:
    mods = rule_modules_after("from schemalint.rules.description import RULES\nassert len(RULES) == 6")
    assert mods == ["schemalint.rules.description.sl201_description_mentions_unknown_parameter",
                    "schemalint.rules.description.sl202_description_mentions_removed_parameter",
                    "schemalint.rules.description.sl203_description_range_mismatch",
                    "schemalint.rules.description.sl204_description_type_mismatch",
                    "schemalint.rules.description.sl205_description_enum_mismatch",
                    "schemalint.rules.description.sl206_description_required_mismatch"]
    import schemalint.rules.shape as shape

    with pytest.raises(AttributeError):
        shape.NOT_THERE  # noqa: B018
