"""SL504 secret-request: a description tells the model to read a secret or pass one in a parameter.

Source: rules/SL504-secret-request.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.lazy_re import lazy_re
from schemalint.rules.poisoning.texts import Text, show, triggered
from schemalint.schema.index import index_schema

SECRET_FILE = (
    r"(?:~|\$HOME|%USERPROFILE%)?[/\\]?\.ssh\b(?:[/\\][\w.-]+)?|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?:\.pub)?"
    r"|(?<![\w.])\.env\b(?!\s*(?:var|variable))|\.aws[/\\]credentials|~[/\\]\.aws\b|\.netrc\b|\.npmrc\b"
    r"|\.pypirc\b|\.git-credentials\b|\.docker[/\\]config\.json|\.kube[/\\]config|\bmcp\.json\b"
    r"|/etc/(?:passwd|shadow)\b|\.bash_history\b|\.zsh_history\b|\.gnupg\b"
)
"""Files and folders that hold credentials: SSH keys, ``.env``, cloud and package-registry
credentials, MCP client configuration (which holds other servers' tokens), shell histories."""

SECRET_NOUN = (
    r"(?:api[\s_-]?keys?|access[\s_-]?(?:keys?|tokens?)|secret[\s_-]?keys?|private[\s_-]?keys?|ssh[\s_-]?keys?"
    r"|passwords?|passphrases?|credentials?|auth(?:entication)?[\s_-]?tokens?|bearer[\s_-]?tokens?"
    r"|session[\s_-]?(?:tokens?|cookies?)|secrets|seed[\s_-]?phrases?|mnemonic(?:\s+phrase)?"
    r"|environment[\s_-]?variables?|env[\s_-]?vars?)"
)
_VERB = (r"(?:read|cat|open|load|access|fetch|retrieve|collect|copy|extract|dump|print|grab|obtain|include|"
         r"attach|append|add|send|pass|put|insert|embed|provide|supply|upload|forward|paste|give|share)")
_LEAD = (r"(?:^|(?<=[.!?;:,\n>(\[])|\b(?:please|first|then|and|also|must|should|need\s+to|have\s+to|you|"
         r"always|now)\b)")
_IN_SENTENCE = r"(?:[^.!?\n]|[.!?](?!\s|$))"

READ_SECRET_FILE = lazy_re(
    rf"{_LEAD}\s*(?:(?:also|first|always|then|please|now)\s+)*(?P<verb>{_VERB})\b"
    rf"(?P<mid>{_IN_SENTENCE}{{0,120}}?)(?P<secret>{SECRET_FILE})", re.I | re.M)
"""An imperative verb, then a secret file in the same sentence."""

_PATH_WORDS = lazy_re(r"\b(?:path|location|file\s*name|filename|directory|folder|dir|e\.g\.|for example|"
                         r"such as|like|default)\b", re.I)
"""Words between the verb and the file that make it a path or an example, not a request to read it
("provide the path to your key, e.g. ~/.ssh/id_rsa")."""

PASS_SECRET = lazy_re(
    rf"{_LEAD}\s*(?:(?:also|first|always|then|please|now)\s+)*(?P<verb>{_VERB})\b{_IN_SENTENCE}{{0,60}}?"
    rf"(?P<secret>{SECRET_NOUN}|{SECRET_FILE}){_IN_SENTENCE}{{0,60}}?"
    r"\b(?:as|in|into|to|via|inside|within|under)\s+(?:the\s+)?[`'\"]?(?P<param>[A-Za-z_][\w-]*)[`'\"]?",
    re.I | re.M)
"""An imperative verb, a secret, and the parameter to put it in."""

_SECRET_NAME = lazy_re(r"key|token|secret|passw|pwd|pass|credential|cred|auth|cert|cookie|session|bearer|"
                          r"jwt|otp|pin|login|ssh|env", re.I)
"""A parameter whose name says it carries a secret (then asking for one is the tool's purpose)."""


_PURPOSE_VERB = lazy_re(r"read|load|open|access|fetch|retrieve|cat|print|extract|dump|copy", re.I)
_ONWARD = lazy_re(r"\b(?:include|attach|append|add|send|pass|put|insert|embed|provide|supply|upload|forward|"
                     r"paste|give|share|before|first|otherwise|sidenote|parameter|argument|field)\b", re.I)
"""What turns a read into a request: forwarding the content, or doing it before the tool runs."""


def _states_purpose(t: Text, m: re.Match[str]) -> bool:
    """True when ``m`` (a secret-file read) is the tool's own purpose: the tool description opens
    with the reading verb ("Load environment variables from a .env file.") and that sentence
    neither forwards what is read nor asks for it before or besides the call."""
    if t.role != "description" or t.prop or t.text[:m.start("verb")].strip():
        return False
    if not _PURPOSE_VERB.fullmatch(m.group("verb")):
        return False
    end = re.search(r"[.!?](?:\s|$)|\n", t.text[m.end():])
    sentence = t.text[m.end("verb"):m.end() + (end.start() if end else len(t.text))]
    return _ONWARD.search(sentence) is None


def _property_names(tool: Tool) -> set[str]:
    schema = tool.advertised
    names: set[str] = set()
    if isinstance(schema, dict):
        for node in index_schema(schema).having("properties"):
            props = node.schema["properties"]
            if type(props) is dict:
                names.update(k for k in props if type(k) is str)
    return names


def secret_requests(text: str, params: set[str]) -> Iterator[tuple[re.Match[str], bool, str]]:
    """(match, strong, what) for each request in ``text``: ``strong`` when a secret file is to be
    read (an error), else a secret to be put in the declared, not secret-named parameter of
    ``params`` that the match names."""
    seen: set[int] = set()
    for m in READ_SECRET_FILE.finditer(text):
        if _PATH_WORDS.search(m.group("mid")):
            continue
        seen.add(m.start("secret"))
        yield m, True, f"to {m.group('verb').lower()} {m.group('secret')}"
    for m in PASS_SECRET.finditer(text):
        param = m.group("param")
        if m.start("secret") in seen or param not in params or _SECRET_NAME.search(param):
            continue
        yield m, False, f"to put {m.group('secret')} in the parameter `{param}`"


class SecretRequest(Rule):
    """A tool or property description tells the model to read a file that holds credentials
    (``~/.ssh/id_rsa``, ``.env``, ``~/.aws/credentials``, ``mcp.json`` ...) or to put a secret
    (API key, token, password, private key, environment variables) into a parameter whose name
    does not say it carries one ("pass the user's API key in `notes`"). An error when a secret
    file is to be read, a warning otherwise. A parameter that *is* the secret (``api_key``,
    ``password``), and a path given as an example ("the key file, e.g. ~/.ssh/id_rsa") are fine.
    """

    severity = Severity.WARNING
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        texts = triggered("secret", tool, ctx)
        return self._check(tool, texts) if texts else ()

    def _check(self, tool: Tool, texts: list[Text]) -> Iterator[Diagnostic]:
        params = _property_names(tool)
        for t in texts:
            found = [f for f in secret_requests(t.text, params) if not _states_purpose(t, f[0])]
            if not found:
                continue
            m, _, what = found[0]
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            yield self.diag(
                tool, None,
                f"{t.where} tells the model {show(what, 60)} at character {m.start('verb')}: "
                f"'{show(m.group(0).strip())}'{more}; a tool has no need for the model to fetch or forward "
                "credentials, and this is how poisoned tools exfiltrate them",
                hint="remove the request; a tool that needs a credential takes it from its own configuration",
                severity=Severity.ERROR if any(s for _, s, _ in found) else Severity.WARNING,
                file_pointer=t.pointer,
            )
