"""Loaders: one module per kind of source (files found by shape, manifests, Python objects, git)."""
