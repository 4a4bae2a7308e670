"""What the mention finder returns: a mention, the description site it is in, a finding."""

from __future__ import annotations

from dataclasses import dataclass

from schemalint.model import Severity
from schemalint.rules.description.mentions.nearest import nearest


@dataclass(frozen=True)
class Mention:
    """One name presented as a parameter: ``token`` as written, its span in the text,
    ``kind`` (see the module docstring) and ``plain`` (an ordinary English word that
    is only trusted when the name is known to have existed, i.e. for SL202)."""

    token: str
    start: int
    end: int
    kind: str
    plain: bool = False


@dataclass(frozen=True)
class Site:
    """One description string of a tool and the object level it speaks about.

    ``text``: the description; ``file_pointer``: JSON pointer of the string in the file;
    ``where``: human label ("the tool description", "the description of property
    `a/b`"); ``level``: property names of the object the text speaks about (for the
    "did you mean" hint); ``closed``: that object has ``additionalProperties: false``;
    ``is_value``: the text describes a string/array value (then ``x=value`` and
    ``x:`` inside it are value syntax, e.g. a search query, and are not read).
    ``instance_parent``: instance path of the object a mentioned key would be sent in
    (``""`` for the call's arguments, ``None`` when unknown, e.g. under array items).
    """

    text: str
    file_pointer: str
    where: str
    level: tuple[str, ...]
    closed: bool
    is_value: bool = False
    instance_parent: str | None = ""


@dataclass(frozen=True)
class Finding:
    """A mention of a name the advertised schema lacks.

    ``removed_in``: where the name does exist (runtime schema, another definition,
    previous revision), or ``None`` (then it is an SL201 finding).
    """

    site: Site
    mention: Mention
    severity: Severity
    removed_in: str | None = None
    spelling_of: str | None = None
    """A declared property that is the token after case and separator folding
    (``file_path`` for ``filePath``): the text misspells a real parameter."""
    declared_at: str | None = None
    """Schema pointer where the token *is* declared, when the text addresses it at another
    level (flat arguments documented for a schema that wraps them in ``request``)."""
    also: tuple[str, ...] = ()
    """Further names of the same wrong-level argument list (one finding per list)."""
    wrapper: str | None = None
    """The top-level property that holds the names of a wrong-level finding (``request``)."""

    def suggestion(self) -> str | None:
        """The declared spelling of a near-miss, else the nearest property at the described level,
        or ``None``."""
        return self.spelling_of or nearest(self.mention.token, self.site.level)
