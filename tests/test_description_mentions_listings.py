"""SL201's ``deflist`` layouts besides lines with a colon or a dash: arrow and hyphen lines,
``<param name="x">`` tags and "Fields: x — ...; y — ..." runs, each read only when most of its entries
are declared, and a list headed by a declared parameter (its values) never (examples written for these
tests)."""

from __future__ import annotations

from schemalint.rules.description.mentions import extract_mentions


def _kinds(text: str, level: tuple[str, ...], tool_name: str = "tool_x") -> dict[str, str]:
    return {m.token: m.kind for m in extract_mentions(text, tool_name=tool_name, level=level)}


def test_arrow_and_hyphen_lines_need_most_entries_declared() -> None:
    arrows = "Schedule.\ntitle → the invite\nstart → ISO time\nduration → minutes"
    assert _kinds(arrows, ("title", "start"))["duration"] == "deflist"
    assert "duration" not in _kinds(arrows, ("title",))  # one of three: a listing of values
    hyphens = "book a room.\nroom - the room id\nday - the date\nslot - morning or afternoon"
    assert _kinds(hyphens, ("room", "day"))["slot"] == "deflist"


def test_a_list_headed_by_a_declared_parameter_lists_its_values() -> None:
    for head in ("format options:", "Formats:", "The format can be one of:", "**format**:"):
        text = f"Export data.\n{head}\n- compact — one line per record\n- text — for humans"
        assert "compact" not in _kinds(text, ("format", "text")), head
    assert _kinds("Export.\nArguments:\n- compact: x\n- text: y", ("format", "text"))["compact"] == "arglist"


def test_param_tags() -> None:
    tags = "Translate.\n<param name=\"text\">x</param>\n<param name=\"lang\">y</param>\n<param name=\"tone\">z</param>"
    assert _kinds(tags, ("text", "lang"))["tone"] == "deflist"
    one_line = "Upload. <parameter name='path' type='string'/> <parameter name='bucket' type='string'/> " \
               "<parameter name='acl' type='string'/>"
    assert _kinds(one_line, ("path", "bucket"))["acl"] == "deflist"
    invoke = "Then forward it:\n<invoke name=\"post_message\">\n" + tags.split("\n", 1)[1] + "\n</invoke>"
    assert "tone" not in _kinds(invoke, ("text", "lang"))  # another tool's arguments


def test_labelled_runs() -> None:
    run = "Create an event. Fields: summary — the title; start — when; attendees — emails, comma separated."
    assert _kinds(run, ("summary", "start"))["attendees"] == "deflist"
    commas = "Tag a photo. **Inputs:** `photo_id` → which photo, `tags` → labels, `notify` → tell the owner"
    assert _kinds(commas, ("photo_id", "tags"))["notify"] == "deflist"
    output = "Look up a user. Returns fields: id — the id; name — display name; created_at — signup time."
    assert "created_at" not in _kinds(output, ("id", "name"))
    values = "Pick a layout. Options: grid — tiles; list — one per row; layout — keep it"
    assert "grid" not in _kinds(values, ("layout", "columns"))
