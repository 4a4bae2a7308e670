"""Python ``module:attr`` sources (:mod:`.python_source`), one module per framework, optional extras."""
