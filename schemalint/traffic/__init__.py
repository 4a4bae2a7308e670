"""Recorded traffic: requests, transcripts and MCP logs read as conversations (docs/traffic.md).

One reader module per format (:mod:`.openai_chat`, :mod:`.openai_responses`, :mod:`.anthropic`,
:mod:`.gemini`, :mod:`.mcp`); :mod:`.records` holds the value types every reader produces
(:class:`~.records.Conversation` of :class:`~.records.Turn` holding :class:`~.records.Call` and
:class:`~.records.Result`); :mod:`.stream` reads a file (one document, or JSON Lines line by line)
and hands each record to the reader whose shape it has; :mod:`.detect` says, cheaply, whether a
parsed document holds recorded traffic (``schemalint check`` uses it to name such files).

The tools a record declares (a request's ``tools``, a ``tools/list`` answer) are found with the
tool loaders (:func:`schemalint.loaders.formats.json_tools.find_tools`), not parsed again here.
:mod:`.replay` (a higher layer, beside :mod:`schemalint.api_commands`) runs the SL4xx rules.
"""
