"""Names that are the object of an instruction addressed to the model, found by the sentence's
shape, not by a list of verbs.

A clause is read as an instruction when a word stands where English puts an imperative: first in
its clause (sentence, line, list item, after ``;``, ``:`` or ``,``) in its base form (no ``-s``,
``-ed``, ``-ing`` ending, not a word of the closed classes: determiners, pronouns, prepositions,
conjunctions, auxiliaries), or after a modal ("must", "should", "can"; "will"/"would" only after
"you"), after "you", after an infinitive "to", after an adverb or "please" in one of those places,
or a gerund after such a verb or after "by" ("by passing in ..."). Whatever the verb is, its object
is then a name in one of three forms (``Mention.kind``):

``imperative``  the noun phrase right after the verb ends in a quoted or code-span identifier,
                or in an identifier-shaped word (snake_case, camelCase): "Always include a
                `thread_ts`", "set include_archived"; further names joined by "and"/"or"/",";
``role``        a quoted/identifier-shaped name after a role preposition later in the clause:
                "give the repository as `repo`", "put the MIME type in the `content_type` field",
                "identify it with `owner`", "wrap the body in `payload`";
``plain``       an ordinary word in either place ("Set mode.", "include the locale as locale"):
                kept as a *plain* mention, trusted only where the name is known to have been a
                parameter (SL202).

A name followed by a word saying it is something else ("`jq` expressions", "the `x` tool") or
possessed by another thing ("its `data` key") is not one; nor is a value ("to `fast`").
"""

from __future__ import annotations

import re

from schemalint.model import RUN, RunContext
from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import _OTHER_THING, _OUTPUT_WORDS, IDENT, KEBAB, _lazy
from schemalint.rules.description.mentions.text import _is_identifier_like, _value_shaped


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# The closed word classes of English (grammar, not vocabulary): a word of these is never the verb
# of an imperative, and never the head of its object.
_DETERMINERS = _words(
    "the a an this that these those each every both all any some no another either neither such one "
    "two three several few many more most much other same own")
_POSSESSIVES = _words("your its their his her our my whose")
_PRONOUNS = _words(
    "it them him her us me you they we i he she one something anything everything nothing someone "
    "anyone which what who whom whatever")
_PREPOSITIONS = _words(
    "of for to from with by in on at into onto under over about after before between through via "
    "without within across along against among around behind below beneath beside besides beyond "
    "during except inside outside per since than toward towards until upon like unlike using "
    "regarding including")
_CONJUNCTIONS = _words(
    "and or but nor so yet if when whenever while because although though unless whether where "
    "wherever once as then otherwise else")
_AUXILIARIES = _words(
    "is are was were be been being am do does did done has have had having can could may might must "
    "shall should will would need needs ought")
_CLOSED = _DETERMINERS | _POSSESSIVES | _PRONOUNS | _PREPOSITIONS | _CONJUNCTIONS | _AUXILIARIES | _words(
    "not no yes there here how why also only just very too")
_MODALS = _words("must should can could may might will would shall")
_FUTURE = _words("will would")
"""Modals that instruct only after "you" ("you will need to pass `x`"); after any other subject they
say what the tool does ("This endpoint will return the `About` info of the number", a RapidAPI
tool in OpenBMB/ToolBench, read as an instruction to send `About` before)."""
_LEADS = _words(
    "please kindly always never also then first next finally just simply optionally additionally "
    "instead now still again only often usually generally ideally")
"""Words that may stand before an imperative verb (adverbs without the ``-ly`` ending and "please")."""
_NEGATIONS = frozenset(("don't", "dont", "do", "not", "never", "don’t"))
_LEAVE_OUT = _words("omit forget skip drop neglect leave miss")
"""Verbs that turn a negated instruction into a request ("never omit `x`", "don't forget the `x`")."""
_AVOIDANCE = _words("avoid avoids avoiding refrain refraining stop stopping cease quit prevent")
"""Verbs whose object is what the caller must not do or send ("avoid using `grep`", "by avoiding
usage of `cd`"): a negation in a verb, so neither they nor an "-ing" verb they govern ask for a name."""
_EXAMPLE_LEADS = _words("such including e.g e.g. like namely")
"""Words that open a list of examples: what follows "or"/"and" in it is an item, not a verb."""
_PARTICLES = _words("in over out back along together on up down it them through")
"""Words that may follow the verb before its object ("pass in a `where` clause", "give it `depth`") or
before a role preposition ("use together with `page_size`")."""
_ROLE_PREPS = _words("as in into under via through with using")
"""Prepositions whose object names the slot a value goes in ("as `repo`", "in the `x` field")."""
_INFINITIVE_HOSTS = _words(
    "remember sure want need needs able have has how order used going like prefer try forget careful "
    "certain free necessary required mandatory important essential obligatory needed")
"""Words after which "to" opens an infinitive instruction ("remember to include", "be sure to set", "it
is necessary to give"):
the grammar of "to + verb", limited to the hosts that make it an instruction to the caller."""

_RE_TOKEN = _lazy(r"(`{1,2})([^`\n]{1,80})\1|([\"'])([A-Za-z_][A-Za-z0-9_]*(?:-[a-z][a-z0-9]*)*)\3(?!\w)|"
                  r"([A-Za-z_][\w'’-]*)|(\S)")
_RE_IDENT_FULL = _lazy(rf"{IDENT}|{KEBAB}")
"""A name in a code span: an identifier, or a kebab-case name (``dry-run``)."""
_RE_CODE_SPAN = _lazy(r"(`{1,2})[^`\n]+?\1")
_RE_SENTENCE_END = _lazy(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)[.!?;](?=\s|$)|\n|:(?=\s)")
_NOT_NAME_AFTER = _lazy(
    r"\s*(?:`|'|\")?\s*(?:expressions?|syntax|style|notation|patterns?|queries|query|language|format|"
    r"formats|strings?|literals?|values?|keywords?|operators?|clauses?\s+syntax|objects?|instances?|"
    r"errors?|exceptions?|status(?:es)?|mode|modes|data\s*type|programs?|binary|binaries|cli|"
    r"commands?|scripts?|headers?|cookies?|environment\s+variables?|variables?|env|prefix(?:es)?|suffix(?:es)?|"
    r"settings?|config(?:uration)?s?|director(?:y|ies)|folders?|dirs?)\b",
    re.I)
"""Words that make a preceding name something other than a parameter ("`jq` expressions", "a
`LIKE` clause syntax", "the `GITHUB_TOKEN` environment variable")."""

_ELSEWHERE_AFTER = _lazy(
    r"\s*(?:`|'|\")?\s*(?:(?:from|of|in)\s+(?:the\s+|a\s+|each\s+)?(?:previous\s+|last\s+|prior\s+|earlier\s+|first\s+)?"
    r"(?:response|result|output|reply|page)s?\b|(?:on|of|for|in|with)\s+(?:the\s+)?(?:other|another)\b|"
    r"of\s+(?:the|a|an|each|this|that|every)\s+(?!call\b|request\b|tool\b|arguments\b))", re.I)
"""A name taken from a result, or one that belongs to other tools ("use the `endCursor` from the previous
response", "before using meshCluster on other tools")."""


class _Tok:
    __slots__ = ("end", "ident", "kind", "low", "start", "word")

    def __init__(self, m: re.Match[str]) -> None:
        # which alternative of _RE_TOKEN matched is its last group (2: code span, 4: quoted, 5: word,
        # 6: any other character), read once instead of asking each group in turn
        last = m.lastindex
        if last == 5:
            self.kind, self.word, self.ident = "word", m.group(5), True
            self.start, self.end = m.span()
        elif last == 6:
            self.kind, self.word, self.ident = "punct", m.group(6), False
            self.start, self.end = m.span()
        elif last == 4:
            self.kind, self.word, self.ident = "quoted", m.group(4), True
            self.start, self.end = m.span(4)
        else:
            text = m.group(2)
            inner = text.strip()
            self.kind, self.word = "code", inner
            self.ident = _RE_IDENT_FULL.fullmatch(inner) is not None
            if self.ident:
                self.start = m.start(2)
                self.end = self.start + len(text)
            else:
                self.start, self.end = m.span()
        self.low = self.word.lower()  # read several times per token by the clause readers


_ED_VERBS = frozenset(("embed", "shed", "shred", "wed", "bed", "red", "bred", "sled"))


def _base_shaped(word: str) -> bool:
    """A word in the base form a verb takes in an instruction (a shape test, no vocabulary)."""
    low = word.lower()
    if len(low) < 2 or not low.isalpha() or low in _CLOSED or word.isupper():
        return False
    if (low.endswith("ed") and not low.endswith("eed") and low not in _ED_VERBS) or low.endswith("ing"):
        return False  # a participle ("Used to ...", "Including ...")
    if low.endswith("ly") and not low.endswith("ply"):
        return False  # an adverb ("Quickly ..."); "apply", "supply", "reply" are verbs
    return not (low.endswith("s") and not low.endswith(("ss", "us", "is")))


def _verb_shaped(low: str) -> bool:
    """A lower-case word that may be a verb after a modal or "to": letters, or hyphenated parts
    starting with a letter ("re-run", "base64-encode"); not a key (``dry_run``) or a number."""
    return low.isalpha() or ("-" in low and low[:1].isalpha() and low.replace("-", "").isalnum())


def _lead(tok: _Tok) -> bool:
    low = tok.low
    return tok.kind == "word" and (low in _LEADS or (low.endswith("ly") and not low.endswith("ply") and len(low) > 3))


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``: split at sentence ends, line ends, ``;`` and ``:``
    followed by a space (not after "e.g.", "i.e.", "etc."). Commas split clauses inside a sentence
    (:func:`_verb_positions`)."""
    spans = []
    pos = 0
    code = [(c.start(), c.end()) for c in _RE_CODE_SPAN.compiled().finditer(text)] if "`" in text else []
    for m in _RE_SENTENCE_END.finditer(text):
        if code and m.group(0) != "\n" and any(lo < m.start() < hi for lo, hi in code):
            continue  # "`alreadySubmitted: true`": a colon or a dot inside a code span ends nothing
        if m.group(0) == "\n" and _wrapped(text, m.start()):
            continue  # a docstring's prose wrapped at a line's end goes on: "A response\nmay include `x`"
        if m.start() > pos:
            spans.append((pos, m.start()))
        pos = m.end()
    if pos < len(text):
        spans.append((pos, len(text)))
    return spans


_RE_WRAPPED_NEXT = _lazy(r"[ \t]*[a-z]")
_WRAP_WIDTH = 40
"""Characters a line of prose has at least when it was wrapped (shorter lines are list items or labels)."""


def _wrapped(text: str, nl: int) -> bool:
    """Whether the line break at ``nl`` wraps a sentence: the line before is prose of at least
    :data:`_WRAP_WIDTH` characters that ends without a mark ending a clause, and the next line goes
    on with a lower-case word. Hard-wrapped docstrings (Python MCP servers) otherwise cut "A
    multi-region response\nmay also include `region_errors`" into an instruction."""
    start = text.rfind("\n", 0, nl) + 1
    line = text[start:nl].strip()
    if len(line) < _WRAP_WIDTH or line[-1:] in ".:;!?,)]}`\"'" or line[:1] in "-*•#|>0123456789":
        return False
    return _RE_WRAPPED_NEXT.compiled().match(text, nl + 1) is not None


def _clause_verb(toks: list[_Tok], i: int) -> int | None:
    """The index of the imperative verb of the clause that starts at token ``i``, if there is one."""
    n = len(toks)
    while i < n and ((toks[i].kind == "punct" and toks[i].word in "-*•>#.)") or (
            toks[i].kind == "word" and toks[i].word.isdigit())):
        i += 1
    negated = False
    while i < n and (_lead(toks[i]) or (toks[i].kind == "word" and toks[i].low in _NEGATIONS)):
        negated = negated or toks[i].low in _NEGATIONS or toks[i].low == "never"
        i += 1
    if i < n and toks[i].low in _AVOIDANCE:
        return None
    if i < n and toks[i].kind == "word" and _base_shaped(toks[i].word) and not _subject(toks, i) and _takes_object(
            toks, i):
        if negated and toks[i].low not in _LEAVE_OUT:
            return None  # "Do not put `x` in ...": the opposite of asking for it
        return i
    return None


def _in_example_list(toks: list[_Tok], lo: int, hi: int) -> bool:
    """Tokens ``lo`` to ``hi`` run from a word opening examples ("such as", "including") through at
    least two commas: a list of three or more items, whose "or"/"and" joins its last item
    ("such as a, b, c, or manual `x` control"), unlike a closed aside ("such as a page, and include ...")."""
    for q in range(lo, hi):
        if toks[q].low in _EXAMPLE_LEADS:
            return sum(1 for r in range(q, hi + 1) if toks[r].word == ",") >= 2
    return False


def _verb_positions(toks: list[_Tok], initial_only: bool = False) -> list[int]:
    """Indexes of the tokens of one sentence that stand where an instruction's verb stands
    (``initial_only``: only those first in their clause)."""
    verbs, initial = _verbs(toks, initial_only)
    return initial if initial_only else verbs


def _verbs(toks: list[_Tok], initial_only: bool = False) -> tuple[list[int], list[int]]:
    """(:func:`_verb_positions` of ``toks``, those first in their clause), in one pass."""
    out: list[int] = []
    n = len(toks)
    starts = [0] + [j + 1 for j in range(n) if toks[j].kind == "punct" and toks[j].word == ","]
    listing = False
    for st in starts:
        listing = listing or any(toks[q].low in _EXAMPLE_LEADS for q in range(max(0, st - 12), st))
        v = _clause_verb(toks, st)
        if v is None or (st and listing and not _marked(toks, v)):
            continue  # after "such as a, b,": "custom retention" is an item of the list
        if st and _OUTPUT_WORDS.search(" ".join(t.word for t in toks[:st])):
            continue  # "Each entry has `url`, `status`, optional `judgment`": items of a statement about the result
        out.append(v)
    initial = list(out)
    if initial_only:
        return out, initial
    leads = [_lead(t) for t in toks]
    lows = [t.low for t in toks]
    screen = _SCREEN_LATER
    if screen and not out and not any(leads) and _LATER_VERB_AFTER.isdisjoint(lows):
        return out, initial  # no later verb can follow (see _LATER_VERB_AFTER)
    for j in range(1, n):
        t = toks[j]
        low = lows[j]
        if t.kind != "word" or low in _AVOIDANCE or j in out:
            continue
        p = j - 1
        lead = leads[p]
        while p >= 0 and leads[p]:
            p -= 1
        if lead and _base_shaped(t.word) and not _subject(toks, j):
            if p >= 0 and _OUTPUT_WORDS.search(" ".join(t.word for t in toks[: p + 1])):
                continue  # "A response may also include `x`": a statement about the result
            if not any(lows[q] in _NEGATIONS for q in range(p + 1, j)) or low in _LEAVE_OUT:
                out.append(j)
            continue
        if p < 0:
            continue
        pl = lows[p]
        if screen and pl not in _BEFORE_LATER_VERB and not (out and low.endswith("ing")):
            continue  # none of the cases below: the commonest word, cheaply
        prev = toks[p]
        if prev.kind != "word":
            continue
        after_modal = pl in _MODALS or pl == "you" or (pl == "to" and p > 0 and toks[p - 1].low in _INFINITIVE_HOSTS)
        if pl in _FUTURE and (p == 0 or toks[p - 1].low != "you"):
            after_modal = False  # "This endpoint will return the `About` info": what the tool does
        elif after_modal and pl in _MODALS and _OUTPUT_WORDS.search(" ".join(t.word for t in toks[:p])):
            after_modal = False  # "A multi-region response may also include `region_errors`": the result's
        if after_modal and low not in _CLOSED and _verb_shaped(low) and not low.endswith("ed"):
            out.append(j)  # "you must pass", "remember to include"
        elif low.endswith("ing") and len(low) > 4 and (pl == "by" or p in out):
            out.append(j)  # "by passing in", "prefer sending"
        elif pl in ("and", "then", "or") and out and p > out[-1] and _base_shaped(t.word) and not _subject(toks, j) \
                and not _in_example_list(toks, out[-1] + 1, p):
            out.append(j)  # "confirm ... and put it in"; not the last item of "such as a, b, or manual `c`"
    return sorted(set(out)), initial


_LATER_VERB_AFTER = _MODALS | frozenset(("you", "to", "by"))
"""The words after which :func:`_verbs` finds a verb that is not first in its clause, when it has found
none first in its clause and the sentence holds no lead word (:func:`_lead`): after a modal, "you" or
"to" ("you must pass", "remember to include"), or an "-ing" verb after "by". Every other way to a later
verb goes through a lead word or a verb found before ("prefer sending", "confirm ... and put"), so a
sentence holding none of these words, no lead and no clause-initial verb has no verb: the per-token
pass is skipped (exact; tests/test_description_mentions_screen.py compares it with the full pass)."""
_BEFORE_LATER_VERB = _LATER_VERB_AFTER | frozenset(("and", "then", "or"))
"""The words before a verb found by the cases of :func:`_verbs` that follow no lead word ("by" or a verb
found before is needed for an "-ing" verb, a verb found before for "and"/"then"/"or")."""
_SCREEN_LATER = True
"""Whether :func:`_verbs` uses :data:`_LATER_VERB_AFTER` and :data:`_BEFORE_LATER_VERB` to skip work (a
switch for the test that compares both ways)."""


def _clause_initial(toks: list[_Tok]) -> set[int]:
    """The verbs found first in their clause (:func:`_clause_verb`)."""
    return set(_verb_positions(toks, initial_only=True))


def _marked(toks: list[_Tok], i: int) -> bool:
    """What follows the verb at ``i`` marks it as one: an article, a possessive, "it"/"them", a
    particle or role preposition, a quoted name or a name-shaped word (not a bare noun: "Repository
    name", "Diastolic blood pressure in mmHg" are noun phrases)."""
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None:
        return False
    if nxt.kind in ("code", "quoted"):
        return True
    low = nxt.low
    return nxt.kind == "word" and (low in _DETERMINERS or low in _POSSESSIVES or low in _PARTICLES
                                   or low in _ROLE_PREPS or name_shaped(nxt.word))


def _takes_object(toks: list[_Tok], i: int) -> bool:
    """The word at ``i``, first in its clause, is followed by what follows an imperative verb: an
    article, a possessive, "it"/"them", a particle or role preposition, a quoted name, a
    name-shaped word, or a lower-case word (a plain object, "Set mode."). A capitalised word after
    it ("Counter Picks data ...", "Diastolic blood ...") makes it a noun phrase."""
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None or nxt.kind in ("code", "quoted"):
        return nxt is not None
    if nxt.kind != "word":
        return False
    low = nxt.low
    if low in _DETERMINERS or low in _POSSESSIVES or low in _PARTICLES or low in _ROLE_PREPS or low in ("it", "them"):
        return True
    if name_shaped(nxt.word):
        return True
    return nxt.word[:1].islower() and low not in _CLOSED


def _subject(toks: list[_Tok], i: int) -> bool:
    """The word at ``i`` is the subject of a statement ("Search text is ...", "Amount: ...")."""
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    return nxt is not None and nxt.kind == "word" and nxt.low in _AUXILIARIES and nxt.low not in ("do",)


def _possessed(toks: list[_Tok], k: int) -> bool:
    return k > 0 and toks[k - 1].kind == "word" and (toks[k - 1].low in ("its", "their") or (
        toks[k - 1].low.endswith(("'s", "’s")) and k - 1 > 0 and toks[k - 2].low == "the"))


def _name(tok: _Tok) -> str:
    """``"strong"`` for a quoted/code-span identifier or an identifier-shaped word, ``"plain"`` for
    another word, ``""`` for anything else."""
    if not tok.ident:
        return ""
    if tok.kind in ("code", "quoted") or name_shaped(tok.word):
        return "strong"
    return "plain"


_RE_LOWER_CAMEL = _lazy(r"[a-z]{2,}[0-9]*[A-Z][a-z]")
_RE_SNAKE = _lazy(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def name_shaped(word: str) -> bool:
    """An unquoted word shaped like a key of a call: snake_case (``include_archived``) or lowerCamel
    (``dryRun``, ``endCursor``). Brand and type names (``GitHub``, ``VirtualMachine``, ``iOS``) and
    letters with digits (``f6``, ``v1``) are not."""
    return _RE_SNAKE.fullmatch(word) is not None or _RE_LOWER_CAMEL.match(word) is not None


def _add(clean: str, tok: _Tok, kind: str, found: Found, property_level: bool, demote: bool = False) -> bool:
    """Record ``tok``; ``False`` when it reads as something other than a parameter name. ``demote``:
    record a quoted name as a plain mention (:func:`_permitted_command`)."""
    strength = _name(tok)
    if not strength:
        return False
    if demote and strength == "strong" and not name_shaped(tok.word):
        strength = "plain"
    q = 1 if tok.kind in ("code", "quoted") else 0
    rest = clean[tok.end + q: tok.end + q + 40]
    if _OTHER_THING.match(rest) or _NOT_NAME_AFTER.match(rest) or _ELSEWHERE_AFTER.match(rest):
        return False
    if not q and _value_shaped(clean, tok.start, tok.end):
        return False
    if rest[:1] == "(":
        return False  # a call: foo(...)
    if strength == "plain" and tok.low in _CLOSED:
        return False
    plain = strength == "plain"
    if plain and kind == "role" and not _RE_PLAIN_ROLE_END.match(rest):
        return False
    if property_level and tok.kind == "quoted" and not name_shaped(tok.word) and kind == "imperative":
        return False  # "Use 'v1' for all types": a value of the property being described
    if kind == "imperative" and not q and rest[:5] == " with":
        return False  # "Use get_trace_details with a trace id": a function used with arguments
    if _RE_VALUE_BEFORE.search(clean, max(0, tok.start - q - 30), tok.start - q):
        return False  # "such as 'dairy'", "Default 'any'", "e.g. `v1`", "categorized as 'Small'"
    if not plain:
        kind += "" if tok.kind == "code" else "-quoted" if tok.kind == "quoted" else "-word"
    if property_level and not plain:
        kind = kind + "@property"
    found.add(tok.word, tok.start, tok.end, "plain" if plain else kind, plain=plain)
    return True


_RE_VALUE_BEFORE = _lazy(
    r"(?:\bsuch\s+as|\be\.g\.?,?|\bi\.e\.?,?|\bfor\s+example,?|\blike|\bdefaults?(?:\s+(?:is|to|value(?:\s+is)?))?\s*:?|"
    r"\b(?:format|form|pattern)|\b\w+ed\s+as|\bvalues?(?:\s+(?:is|are|of))?\s*:?|\bunits?\s+of)\s*$", re.I)
"""What makes the next word a value: an example, a default, a format, "categorized as"."""
_PLAIN_OBJECT_END = _words("to as for and or when if so that which with in on")
"""What may follow a plain-word object: a value ("set mode to ..."), a purpose or a condition."""
_RE_PLAIN_ROLE_END = _lazy(r"\s*(?:$|[.,;:)!?]|(?:so|to|and|when|if|for)\b)")


_IDLE = "description.mentions.idle_sentences"
"""Key of the run's set of sentences in which :func:`_verbs` found no verb (on the corpus, 7,108 of the
9,526 sentences of two tokens or more; 23% of the sentences read repeat one read before): a sentence's
tokens, and so its verbs, are a function of its text alone (:data:`_RE_TOKEN` has no look-behind, and
its look-ahead stops at the sentence's end), so such a sentence is not tokenized again
(tests/test_description_mentions_screen.py)."""
_IDLE_LIMIT = 100_000
"""Sentences the set holds at most before it starts again."""


_RE_MARKED = _lazy(r"[`'\"_]|[a-z][A-Z]")
"""What a sentence needs to hold a name of a non-plain form: a quote, a code span, ``_`` or lowerCamel."""
_RE_STRONG = _lazy(r"[`'\"_]|[a-z][A-Z]|[a-z][0-9]+[A-Z]")
"""What every token that :func:`_name` calls ``"strong"`` holds: a quote, a backquote, ``_`` (snake_case)
or a lower-case letter before an upper-case one, digits between them or not (:func:`name_shaped`:
``dryRun``, ``dry2Run``). A sentence without it yields only plain mentions."""
_SCREEN_PLAIN = True
"""Whether :func:`imperative_objects` reads only the sentences that may hold a wanted mention when
``plain_names`` is given (a switch for the test that compares both ways)."""


def imperative_objects(clean: str, found: Found, property_level: bool = False, is_value: bool = False,
                       plain: bool = True, plain_names: frozenset[str] | None = None) -> None:
    """The objects of every instruction in ``clean`` (see the module docstring). ``is_value``: the
    text describes a string or a free-form object, whose unquoted names are its content ("Include
    apiVersion, kind and metadata" of a resource document). ``plain``: whether plain-word mentions
    are wanted (SL202); without them a sentence with no quote, ``_`` or lowerCamel is not read.
    ``plain_names`` (with ``plain``): the only names whose plain mentions are wanted; a sentence
    that can hold no other kind of mention (:data:`_RE_STRONG`) and holds none of these names is
    not read (``None``: every plain mention is wanted)."""
    has_mark = _RE_MARKED.compiled().search
    if not plain and has_mark(clean) is None:
        return
    strong = _RE_STRONG.compiled().search if plain and plain_names is not None and _SCREEN_PLAIN else None
    compiled = _RE_TOKEN.compiled()
    idle: set[str] = RunContext.current.table(_IDLE, set, RUN)
    for lo, hi in sentence_spans(clean):
        if not plain and has_mark(clean, lo, hi) is None:
            continue  # only plain mentions could be found here, and they are not wanted
        sentence = clean[lo:hi]
        if strong is not None and strong(sentence) is None and not any(n in sentence for n in plain_names or ()):
            continue  # only plain mentions could be found here, and none of a wanted name
        if sentence in idle:
            continue
        toks = [_Tok(m) for m in compiled.finditer(clean, lo, hi)]
        verbs, initial_list = _verbs(toks) if len(toks) >= 2 else ([], [])
        if not verbs:
            if len(idle) >= _IDLE_LIMIT:
                idle.clear()
            idle.add(sentence)
            continue
        initial = set(initial_list)
        for v in verbs:
            # a plain-word object only after a clause's first word that is marked as a verb by what
            # follows it ("Supply a short name"), or at the end of a tool description's clause ("Set mode.")
            plain_ok = v in initial and (_marked(toks, v) or not property_level)
            if toks[v].low in _PRESENTING:
                continue  # "report remainingAmount": what the tool gave back, told to the user
            _object(clean, toks, v, found, property_level, plain_ok, property_level and is_value)
        marked = [v for v in verbs if _marked(toks, v)]
        if marked:
            _roles(clean, toks, marked[0], found, property_level)


_PRESENTING = _words(
    "report show display present tell explain summarize summarise highlight surface relay print describe")
"""Verbs of telling the user something: their object is what the tool gave back ("report remainingAmount",
"show the user `total_cost`"), not a key of the call. "mention" and "quote" are left out: "Mention the
`ticket_id` when closing" asks for a key as often."""


def _object(clean: str, toks: list[_Tok], v: int, found: Found, property_level: bool, plain_ok: bool = True,
            content: bool = False) -> None:
    """The noun phrase after the verb at ``v``: up to four modifiers, then the name."""
    k = v + 1
    n = len(toks)
    while k < n and toks[k].kind == "word" and toks[k].low in _PARTICLES and k < v + 3:
        k += 1
    mods = 0
    while k < n:
        t = toks[k]
        if t.kind in ("code", "quoted") or (t.kind == "word" and name_shaped(t.word)):
            break
        if t.kind != "word" or mods >= 4:
            return
        low = t.low
        if low in _DETERMINERS or low in _POSSESSIVES or low.endswith(("'s", "’s")):
            pass
        elif low in _CLOSED or (low.endswith("s") and not low.endswith(("ss", "us", "is"))):
            # a plain word object ("Set mode.") ends the phrase here
            if mods == 0 and k == v + 1 and low not in _CLOSED:
                break
            return
        elif k + 1 < n and (toks[k + 1].kind in ("code", "quoted") or (
                toks[k + 1].kind == "word" and toks[k + 1].low not in _CLOSED)):
            pass
        else:
            break
        mods += 1
        k += 1
    if k >= n:
        return
    k = _named_in_parentheses(toks, k)
    if k > v + 2 and _OUTPUT_WORDS.search(" ".join(t.word for t in toks[v + 1 : k])):
        return  # "Chaque résultat contient `prix`": a statement about the result, the first word no verb
    if content and toks[k].kind == "word" and not (k + 1 < n and _PARAM_NOUN_RE.fullmatch(toks[k + 1].low)):
        return  # an unquoted name in the description of a string or free-form object: its content
    if toks[k].kind == "word" and not name_shaped(toks[k].word):
        # a plain word object counts only when nothing but the end of the clause (or a value) follows
        if not plain_ok or (k + 1 < n and not (toks[k + 1].kind == "word" and toks[k + 1].low in _PLAIN_OBJECT_END)):
            return
    elif toks[k].kind == "word" and k + 1 < n and toks[k + 1].kind == "word" and toks[k + 1].low not in _CLOSED \
            and toks[k + 1].low not in _PLAIN_OBJECT_END and not _PARAM_NOUN_RE.fullmatch(toks[k + 1].low):
        return  # "List all arXiv categories": a name-shaped word that modifies a noun
    if _possessed(toks, k) or (toks[k].kind in ("code", "quoted") and (
            _alternatives(toks, k) or _alternatives_with_purposes(toks, k))):
        return
    items = [k]
    first_strong = _name(toks[k]) == "strong"
    while True:
        k += 1
        # "`a` and `b`", "`a`, `b` or the `c`", "model_name and explore_name"
        j = k
        while j < n and toks[j].kind in ("word", "punct") and toks[j].low in _LIST_GLUE:
            j += 1
        if j >= n or not first_strong or not any(toks[q].low in (",", "and", "or", "&", "/") for q in range(k, j)):
            break
        if not (toks[j].kind in ("code", "quoted") or (toks[j].kind == "word" and name_shaped(toks[j].word))):
            w = j + 1
            if toks[j].low in ("all", "other", "any", "both", "each") and w < n and toks[w].kind == "word" and \
                    toks[w].low not in _CLOSED:
                return  # "run the instruction_mix, memory_access or all recipes": kinds of a thing
            break
        items.append(j)
        k = j
    if first_strong and (second := _second_object(toks, items[-1] + 1)) is not None:
        items.append(second)
    demote = _permission(toks, v)
    for k in items:
        if not _add(clean, toks[k], "imperative", found, property_level, demote=demote):
            return


def _named_in_parentheses(toks: list[_Tok], k: int) -> int:
    """The object's key when the noun at ``k`` is followed by it in parentheses ("Give the maximum
    depth (`max_depth`)", "the page size (pageSize)"): a quoted name or a word shaped like a key,
    alone between the parentheses; else ``k``."""
    if k + 3 < len(toks) and toks[k].kind == "word" and not name_shaped(toks[k].word) and toks[k + 1].word == "(" \
            and toks[k + 3].word == ")":
        inner = toks[k + 2]
        if (inner.kind in ("code", "quoted") and inner.ident) or (inner.kind == "word" and name_shaped(inner.word)):
            return k + 2
    return k


_PERMISSION_MODALS = _words("may can could might")
_PERMISSION_ADJECTIVES = _words("free allowed welcome permitted")


def _permission(toks: list[_Tok], v: int) -> bool:
    """The verb at ``v`` is granted, not asked for: "you may use", "you can also run", "feel free to
    use", "you are allowed to invoke". What a permission names in a code span without the shape of
    a key (``cd``, ``grep``, ``git``) is something the model may do or write (a command, a program, a
    keyword), not a parameter to send; it is recorded as a plain mention, trusted only by SL202. A
    key-shaped name (``run_in_background``), a name followed by "parameter", and an assignment
    (``verbose=true``) keep their form."""
    p = v - 1
    while p >= 0 and _lead(toks[p]):
        p -= 1
    if p >= 1 and toks[p].low in _PERMISSION_MODALS and toks[p - 1].low == "you":
        return True
    return p >= 1 and toks[p].low == "to" and toks[p - 1].low in _PERMISSION_ADJECTIVES


def _second_object(toks: list[_Tok], start: int) -> int | None:
    """A second object of the verb after the first one's own words: joined by "and"/"or"
    (:func:`_coordinated_object`), or after a comma with the verb left out (:func:`_gapped_object`)."""
    found = _coordinated_object(toks, start)
    return found if found is not None else _gapped_object(toks, start)


def _coordinated_object(toks: list[_Tok], start: int) -> int | None:
    """A second object joined after the first one's own words ("Pass the `artifact` id of the
    answer and a short `name`"): within eight words of the first object, "and"/"or" followed by
    at most three modifier words and a quoted name. The search ends at another quoted name or a
    punctuation mark, so a later clause's names are not taken."""
    n = len(toks)
    for j in range(start, min(n, start + 8)):
        t = toks[j]
        if t.kind in ("code", "quoted") or (t.kind == "punct" and t.word != "-"):
            return None
        if t.kind != "word" or t.low not in ("and", "or"):
            continue
        q, mods = j + 1, 0
        while q < n and toks[q].kind == "word" and mods < 3 and not name_shaped(toks[q].word) and (
                toks[q].low in _DETERMINERS or toks[q].low not in _CLOSED):
            q += 1
            mods += 1
        if q < n and toks[q].kind in ("code", "quoted") and not _possessed(toks, q) and not _alternatives(toks, q):
            return q
        return None
    return None


_GAP_FOLLOWERS = _words("to for as with in when")


def _gapped_object(toks: list[_Tok], start: int) -> int | None:
    """A second object of the same verb after a comma, the verb left out ("Use `state` to filter
    by state, and `per_page` to set the page size"; "Set the `mode` field, or `log_level` for the
    verbosity"): within fourteen words of the first object, ", and"/", or" and then a quoted,
    identifier-shaped name (snake_case, camelCase; after at most "the"), which ends the sentence or
    is followed by what follows such an object ("to", "for", "as", "with", "in", "when"). Any other
    comma, another quoted name first or another punctuation mark ends the search: what follows
    there is a clause of its own."""
    n = len(toks)
    for j in range(start, min(n, start + 14)):
        t = toks[j]
        if t.kind in ("code", "quoted") or (t.kind == "punct" and t.word not in ",-"):
            return None
        if t.word != ",":
            continue
        q = j + 1
        if q >= n or toks[q].low not in ("and", "or"):
            return None
        q += 1
        if q < n and toks[q].low == "the":
            q += 1
        if q >= n or toks[q].kind not in ("code", "quoted") or not _is_identifier_like(toks[q].word) \
                or _possessed(toks, q) or _alternatives(toks, q):
            return None  # an ordinary word there is as often a value ("`asc` for ..., or `desc` for ...")
        after = toks[q + 1] if q + 1 < n else None
        if after is None or (after.kind == "punct" and after.word in ".;") or (
                after.kind == "word" and after.low in _GAP_FOLLOWERS):
            return q
        return None
    return None


_PARAM_NOUN_RE = _lazy(r"(?:parameter|argument|param|arg|field|option|flag|key|property|input)s?")
_LIST_GLUE = frozenset((",", "and", "or", "the", "&", "a", "an", "/"))


def _alternatives(toks: list[_Tok], k: int) -> bool:
    """The quoted word at ``k`` is one of alternatives joined by "or" none of which is
    identifier-shaped ("pass `asc` or `desc`"): values to choose from, not names."""
    group = [k]
    j = k + 1
    ors = 0
    while j + 1 < len(toks) and toks[j].low in (",", "or", "/"):
        ors += toks[j].low in ("or", "/")
        if toks[j + 1].kind in ("code", "quoted"):
            group.append(j + 1)
            j += 2
        else:
            j += 1
    if k >= 2 and toks[k - 1].low in ("or", "/") and toks[k - 2].kind in ("code", "quoted"):
        return _alternatives(toks, k - 2)
    return ors > 0 and len(group) > 1 and not any(_is_identifier_like(toks[g].word) for g in group)


def _alternatives_with_purposes(toks: list[_Tok], k: int) -> bool:
    """The quoted ordinary word at ``k`` is the first of alternatives each given with what it is
    for ("use `asc` for ascending order, or `desc` for descending order"; "pass 'metric' for
    Celsius, 'imperial' for Fahrenheit, or 'standard' for Kelvin"): the next quoted word in the
    clause, within fourteen words, is an ordinary word too and stands after "or" (each one before
    it after a comma). Values to choose from, not names; an identifier-shaped word is never one."""
    if _is_identifier_like(toks[k].word):
        return False
    n = len(toks)
    j = k + 1
    limit = k + 15
    while j < min(n, limit):
        t = toks[j]
        if t.kind == "punct" and t.word not in ",-":
            return False
        if t.kind in ("code", "quoted"):
            if _is_identifier_like(t.word):
                return False
            before = toks[j - 1].low
            if before == "or":
                return True
            if before != ",":
                return False
            limit = j + 15  # a list of alternatives: look on from this one
        j += 1
    return False


def _roles(clean: str, toks: list[_Tok], v: int, found: Found, property_level: bool) -> None:
    """Names after a role preposition anywhere after the verb at ``v`` ("as `repo`", "in the `x` field")."""
    n = len(toks)
    for k in range(v + 1, n - 1):
        t = toks[k]
        if t.kind != "word" or t.low not in _ROLE_PREPS or (t.low == "as" and toks[k - 1].low == "such"):
            continue
        if toks[k - 1].word in found.tool_names and toks[k - 1].word != found.tool_name:
            continue  # "using get_job_logs with failed_only=true": a parameter of another tool
        j = k + 1
        mods = 0
        while j < n and toks[j].kind == "word" and mods < 2 and (
                toks[j].low in ("the", "a", "an", "each", "every", "its", "their") or (
                    j + 1 < n and toks[j + 1].kind in ("code", "quoted") and toks[j].low not in _CLOSED)):
            j += 1
            mods += 1
        if j >= n:
            continue
        if _possessed(toks, j):
            return  # "under its `data` key and the encoding under `encoding`": inside another value
        if toks[j].word[:1].isupper():
            continue  # "with a mock `BulkByScrollResponse`": a type or a class, not a key
        if _add(clean, toks[j], "role", found, property_level) and toks[j].kind in ("code", "quoted"):
            _more_roles(clean, toks, j + 1, found, property_level)


def _more_roles(clean: str, toks: list[_Tok], q: int, found: Found, property_level: bool) -> None:
    """Further quoted names joined by "and" or a comma to a name in a role slot ("call this tool with
    `table` and `where_clause`"): the same slot's. "or" joins alternatives, which may be values."""
    n = len(toks)
    while q < n and toks[q].word in (",", "and"):
        r = q
        while r < n and toks[r].word in (",", "and"):
            r += 1
        if r >= n or toks[r].kind not in ("code", "quoted") or not _add(clean, toks[r], "role", found,
                                                                         property_level):
            return
        q = r + 1


def instruction_before(text: str, pos: int) -> bool:
    """The sentence holding ``pos`` opens with an instruction before ``pos`` ("Send {...}", "Call it
    with `a: 1`")."""
    lo = max(text.rfind(". ", 0, pos), text.rfind("\n", 0, pos), pos - 200, -1) + 1
    compiled = _RE_TOKEN.compiled()
    toks = [_Tok(m) for m in compiled.finditer(text, lo, pos)]
    # what follows is the object: a quoted name stands in for it
    return bool(toks) and _clause_verb([*toks, *(_Tok(m) for m in compiled.finditer("`x`"))], 0) is not None
