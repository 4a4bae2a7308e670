"""SL201's ``signature`` form: this tool's call written as a signature (``Usage: create_issue(owner,
repo)``, ``searchDocs(query: string, maxResults?: number)``, ``fetch_page(url[, timeout])``), in any
case style or with a host's prefix, and never another function's (examples written for these tests)."""

from __future__ import annotations

from schemalint.rules.description.mentions import extract_mentions
from schemalint.rules.description.mentions.signatures import own_calls, own_spellings, signature_names


def _kinds(text: str, level: tuple[str, ...], tool_name: str = "tool_x",
           tool_names: frozenset[str] = frozenset()) -> dict[str, str]:
    return {m.token: m.kind for m in extract_mentions(text, tool_name=tool_name, level=level, tool_names=tool_names)}


def test_own_spellings_in_other_cases_and_without_a_host_prefix() -> None:
    assert own_spellings("get_weather") == {"get_weather": True, "getWeather": False, "GetWeather": False}
    assert "get_weather" in own_spellings("mcp__srv__get_weather")
    assert own_spellings("search") == {"search": True}  # one word: no other spelling
    assert "getWeather" not in own_spellings("get_weather", {"getWeather"})  # another tool's name


def test_own_calls_skip_library_functions_but_not_host_prefixes() -> None:
    def calls(text: str, name: str) -> list[int]:
        return [at for at, _, _ in own_calls(text, name)]

    assert calls("Works like re.search(p, s).", "search") == []
    assert calls("Same as client.create_issue(t).", "create_issue") == []
    assert calls("Call mcp__git__create_branch(x=1).", "create_branch") == [15]
    assert calls("Usage: git.create_branch(name)", "create_branch") == [11]
    assert calls("Not bulk_create_branch(x) nor createBranch (x).", "create_branch") == []


def test_signature_names_need_names_and_a_cue() -> None:
    def names(inside: str, before: str = "", level: tuple[str, ...] = ()) -> list[str]:
        return [n for n, _, _ in signature_names(inside, before, level)]

    assert names("repo, title", "Usage: ") == ["repo", "title"]
    assert names("repo, title") == []  # no label, no type, nothing declared: maybe variables
    assert names("repo, title", level=("repo",)) == ["repo", "title"]
    assert names("url[, timeout[, retries]]") == ["url", "timeout", "retries"]
    assert names("query: string, maxResults?: number") == ["maxResults"]  # `query:` is read as arglist
    assert names("self, ctx: Context, path, *args, **kwargs", "def ") == ["path"]
    assert names("params", "Usage: ") == []  # the whole argument object
    assert names('path, "text"', "Usage: ") == []  # a value: a call, not a signature
    assert names("path, {mode: 'append'}", "Usage: ") == []
    assert names("flag: true, other", "Usage: ") == []


def test_signature_lines_of_this_tool() -> None:
    usage = "Open an issue.\nUsage: create_issue(owner, repo, title)"
    assert _kinds(usage, ("summary",), "create_issue")["repo"] == "signature"
    typed = "Search docs.\nSignature: searchDocs(query: string, maxResults?: number): Hit[]"
    assert _kinds(typed, ("query",), "search_docs")["maxResults"] == "signature"
    fenced = "Resize.\n```python\nasync def resize_image(path, width, height, *, keep=True): ...\n```"
    assert _kinds(fenced, ("path",), "resize_image")["height"] == "signature"
    assert "link" not in _kinds("For each link, call fetch_page(link).", ("url",), "fetch_page")
    assert _kinds("Usage: fetch_page (returns markdown)", ("url",), "fetch_page").keys().isdisjoint(
        {"returns", "markdown"})


def test_a_type_before_a_default_is_not_a_keyword() -> None:
    got = _kinds("```python\ndef run_query(sql: str, mode: Literal = 'ro', opts: QueryOpts = None)\n```",
                 ("sql",), "run_query")
    assert {"mode", "opts"} <= got.keys() and {"Literal", "QueryOpts"}.isdisjoint(got)


def test_another_functions_argument_list_is_not_a_name_list() -> None:
    text = "List repositories (the SDK's client.listRepos(org, perPage) does the same)."
    assert "perPage" not in _kinds(text, ("org",), "list_repos")
