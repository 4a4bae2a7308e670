"""Loaders: from what the user names to :class:`~schemalint.model.Tool` objects.

Where things live (and where a new loader goes):

* :mod:`~schemalint.loaders.files`: naming and reading files. Path, directory and glob
  expansion, skipped directories and excludes (``files.sources``); reading bytes and parsing
  JSON / JSONC / JSON Lines / YAML documents with their size and nesting bounds
  (``files.documents``). A new *file syntax* (say TOML) goes into ``files.documents``.
* :mod:`~schemalint.loaders.formats`: tool *dialects* recognised by shape inside parsed
  documents (OpenAI, Anthropic, Gemini, Bedrock, MCP, ...: ``formats.json_tools``), and plain
  Python objects of those shapes (``formats.json_objects``). A new *tool format* found in
  JSON or YAML (a "format Y") is one more shape in ``formats.json_tools``, or a module
  beside it that ``find_tools`` calls.
* :mod:`~schemalint.loaders.python`: ``module:attr`` sources imported in a worker process
  (``python.python_source`` and its ``RECOGNIZERS`` list), one module per framework
  (pydantic, OpenAI Agents, LangChain, MCP servers), what they share
  (``python.framework_common``) and the optional extras (``python.extras``). A new *Python
  framework* is a module here with ``tools_from_object`` and a row in ``RECOGNIZERS``.
* :mod:`~schemalint.loaders.git`: sources as they were at a git revision (blobs, trees, and
  Python sources imported from a temporary worktree); used by ``schemalint diff``.

Loaders import only :mod:`schemalint.model`, :mod:`schemalint.textsafe`, the worker bridge
(:mod:`schemalint.bridge`) and each other; never rules, the engine, the API or the CLI.
"""
