"""schemalint: lint and diff the contracts of LLM tools."""

__version__ = "0.1.0"
