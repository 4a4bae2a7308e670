"""Rules: one module per rule, grouped in families; see :mod:`schemalint.rules.registry`."""
