"""What the mention finder returns: a mention, the description site it is in, a finding."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from schemalint.model import Severity, escape_token
from schemalint.rules.description.mentions.nearest import nearest

if TYPE_CHECKING:
    from schemalint.model import Tool
    from schemalint.schema.index import SchemaNode


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


_TOOL_DESCRIPTION = "the tool description"


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
    ``of_tool``: ``where`` is the tool description. ``open_content``: the text describes a value
    that accepts any key (a free-form object, an array of them: a pipeline of stage objects), so
    the names it hands over are that value's own keys.

    A property's site (:meth:`of_property`) works out its pointer, label and instance path on
    first use: most sites hold no mention and are never reported. Sites compare and hash by
    their fields, as a frozen dataclass would.
    """

    __slots__ = ("_file_pointer", "_instance_parent", "_label", "_node", "_tool", "_where", "closed", "is_value",
                 "level", "of_tool", "open_content", "text")

    def __init__(self, text: str, file_pointer: str, where: str, level: tuple[str, ...], closed: bool,
                 is_value: bool = False, instance_parent: str | None = "") -> None:
        self.text = text
        self._file_pointer: str | None = file_pointer
        self._where: str | None = where
        self.level = level
        self.closed = closed
        self.is_value = is_value
        self._instance_parent: str | None = instance_parent
        self._label = ""
        self._node: Any = None
        self._tool: Any = None
        self.of_tool = where == _TOOL_DESCRIPTION
        self.open_content = False

    @classmethod
    def of_property(cls, text: str, tool: Tool, node: SchemaNode, label: str, level: tuple[str, ...], closed: bool,
                    is_value: bool) -> Site:
        """The site of the description of property ``label`` (``a/b``, ``*`` for items), the
        subschema ``node`` of ``tool``'s advertised schema; pointer, ``where`` and instance path
        are computed when first asked for."""
        site = cls.__new__(cls)
        site.text = text
        site._file_pointer = None
        site._where = None
        site.level = level
        site.closed = closed
        site.is_value = is_value
        site._instance_parent = None
        site._label = label
        site._node = node
        site._tool = tool
        site.of_tool = False
        return site

    @property
    def file_pointer(self) -> str:
        """JSON pointer of the string in its file."""
        if self._file_pointer is None:
            self._file_pointer = self._tool.pointer_in_file(self._node.pointer + "/description")
        return self._file_pointer

    @property
    def where(self) -> str:
        """Where the string is, for a message."""
        if self._where is None:
            self._where = f"the description of property `{self._label}`"
        return self._where

    @property
    def instance_parent(self) -> str | None:
        """Instance path of the object a mentioned key would be sent in (``None``: unknown)."""
        if self._node is not None and self._instance_parent is None and "*" not in self._label:
            self._instance_parent = "".join("/" + escape_token(p) for p in self._label.split("/")[:-1])
        return self._instance_parent

    def _fields(self) -> tuple[Any, ...]:
        return (self.text, self.file_pointer, self.where, self.level, self.closed, self.is_value,
                self.instance_parent)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return ("Site(text={!r}, file_pointer={!r}, where={!r}, level={!r}, closed={!r}, is_value={!r}, "
                "instance_parent={!r})".format(*self._fields()))


@dataclass(frozen=True)
class AbsentMention:
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
