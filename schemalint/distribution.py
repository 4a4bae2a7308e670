"""What the installed schemalint distribution brings: the packages of its extras.

A lowest-layer module, so that the probe engine and the loaders name an extra the same way.
"""

from __future__ import annotations


def extra_install_line(extra: str) -> str:
    """A ``pip install`` line that installs what the extra ``extra`` brings into this environment.

    The packages are read from the installed distribution's metadata (its ``Requires-Dist``
    entries marked ``extra == "EXTRA"``), so the line works whether schemalint came from a
    wheel, a git tag or a checkout: ``pip install 'schemalint[mcp]'`` would ask a package index
    for a release that may not be there (issue 32). Falls back to naming the extra.
    """
    from importlib import metadata

    try:
        requires = metadata.requires("schemalint") or []
    except metadata.PackageNotFoundError:
        requires = []
    marker = f'extra == "{extra}"'
    wanted = [r.split(";", 1)[0].strip().replace(" ", "") for r in requires if marker in r.replace("'", '"')]
    if not wanted:
        return f"pip install 'schemalint[{extra}]'"
    return "pip install " + " ".join(f"'{w}'" for w in wanted) + f" (schemalint's [{extra}] extra)"
