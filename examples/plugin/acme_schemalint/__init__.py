"""ACME's house rules for tool schemas: an example schemalint plugin (docs/plugins.md)."""
