"""schemalint: lint and diff the contracts of LLM tools."""

try:  # written by hatch-vcs at build and editable install, from the git tag (pyproject.toml)
    from schemalint._version import __version__
except ImportError:  # a source tree used without installing it
    __version__ = "0.0.0+unknown"
