"""Naming and reading files: path expansion (:mod:`.sources`) and documents (:mod:`.documents`)."""
