"""What every command's request shares: the sources and MCP servers it reads.

The request of each command (:mod:`.diff_run`, :mod:`.snapshot_run`, :mod:`.replay_run`,
:mod:`.probe_run`, :mod:`.show_run`; ``check``'s is :class:`schemalint.engine.request.CheckRequest`)
holds its options as given; the run resolves them here against the configuration, so an API
caller gets the defaults the command applies. Errors are
:class:`~schemalint.engine.request.RequestError`, with the message the command prints after
``schemalint: error:``. Nothing heavy is imported at module level (the CLI imports this module).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.config import Config

NO_SOURCES = "no sources given and none configured in [tool.schemalint] `sources`"
"""The message of every command that finds no sources to read."""


@dataclass(frozen=True, kw_only=True)
class CommandRequest:
    """What the request of every command besides ``check`` holds (keyword-only, after the command's
    own fields): ``mcp_stdio``/``mcp_url``/``mcp_headers``, the MCP servers named (commands,
    Streamable HTTP URLs, the headers sent to them), and ``config``, the
    :class:`~schemalint.config.Config` (``None``: none, root = working directory)."""

    mcp_stdio: tuple[str, ...] = ()
    mcp_url: tuple[str, ...] = ()
    mcp_headers: Mapping[str, str] | None = field(default=None, hash=False)
    config: Config | None = None

    @property
    def cfg(self) -> Config:
        """The configuration, or an empty one rooted at the working directory."""
        return configuration(self.config)

    def servers_named(self) -> bool:
        """Whether the request names MCP servers itself (else the configuration's may apply)."""
        return bool(self.mcp_stdio or self.mcp_url)


def request_error(message: str) -> Exception:
    """A :class:`~schemalint.engine.request.RequestError` with ``message`` (imported when raised:
    the engine package is heavy)."""
    from schemalint.engine.request import RequestError

    return RequestError(message)


@dataclass
class McpServers:
    """The MCP servers a command reads besides its sources: ``stdio`` commands (run in ``cwd``,
    ``None``: the working directory), Streamable HTTP ``urls`` and the ``headers`` sent to them."""

    stdio: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None

    def __bool__(self) -> bool:
        return bool(self.stdio or self.urls)

    def names(self) -> list[str]:
        """The commands and URLs as given (a URL without its userinfo)."""
        from schemalint.loaders.python.mcp_http import shown_url

        return [*self.stdio, *(shown_url(u) for u in self.urls)]

    def labels(self) -> list[str]:
        """How reports name the servers: ``mcp-stdio 'CMD'``, ``mcp-url 'URL'`` (userinfo removed)."""
        from schemalint.loaders.python.mcp_http import shown_url

        return [*(f"mcp-stdio {c!r}" for c in self.stdio), *(f"mcp-url {shown_url(u)!r}" for u in self.urls)]

    def options(self) -> list[str]:
        """The servers as command-line options (for a command a message suggests; headers and a URL's
        userinfo left out: they may be secrets)."""
        import shlex

        from schemalint.loaders.python.mcp_http import shown_url

        return [*(f"--mcp-stdio {shlex.quote(c)}" for c in self.stdio),
                *(f"--mcp-url {shlex.quote(shown_url(u))}" for u in self.urls)]

    def load_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :func:`schemalint.api.load` / :func:`schemalint.api.check` naming them."""
        return {"mcp_stdio": self.stdio, "mcp_url": self.urls, "mcp_headers": self.headers, "mcp_cwd": self.cwd}


def mcp_servers(stdio: Sequence[str], urls: Sequence[str], headers: Mapping[str, str] | None, cfg: Config, *,
                configured: bool) -> McpServers:
    """The servers ``stdio``/``urls`` (with ``headers``, already parsed), or (``configured``) the
    configuration's ``mcp-stdio`` and ``mcp-url`` (whose commands run in the configuration's root).
    Raises :class:`~schemalint.engine.request.RequestError` for headers with no URL to send them to."""
    if configured:
        servers = McpServers(list(cfg.mcp_stdio), list(cfg.mcp_url), cwd=str(cfg.root) if cfg.mcp_stdio else None)
    else:
        servers = McpServers(list(stdio), list(urls))
    if headers:
        servers.headers = dict(headers)
        if not servers.urls:
            raise request_error("--mcp-header is sent to --mcp-url servers, and no --mcp-url is given or configured")
    return servers


def what_to_read(sources: Sequence[str], stdio: Sequence[str], urls: Sequence[str],
                 headers: Mapping[str, str] | None, cfg: Config) -> tuple[list[str], McpServers]:
    """The sources and MCP servers a command reads. What the request names (paths, ``module:attr``,
    servers) replaces all of ``sources``, ``mcp-stdio`` and ``mcp-url`` of the configuration; with
    none named, those three apply. Raises :class:`~schemalint.engine.request.RequestError`
    (:data:`NO_SOURCES`) when nothing at all is to be read, and as :func:`mcp_servers` does."""
    from schemalint.config import resolve_sources

    named = bool(sources or stdio or urls)
    srcs = list(sources) if named else resolve_sources(cfg)
    servers = mcp_servers(stdio, urls, headers, cfg, configured=not named)
    if not srcs and not servers:
        raise request_error(NO_SOURCES)
    return srcs, servers


def configuration(config: Config | None) -> Config:
    """``config``, or an empty configuration rooted at the working directory (a request without one)."""
    from schemalint.config import Config

    return config if config is not None else Config()
