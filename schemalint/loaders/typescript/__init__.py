"""TypeScript and JavaScript module sources (``path/to/tools.ts:ATTR``), read by a Node worker.

:mod:`.node` finds Node, the project's ``tsx`` or Node's type stripping, and runs the worker
(``schemalint/bridge/node_worker.mjs``); :mod:`.source` loads sources through it and measures
the runtime's omission refusals with the probe engine. See docs/typescript.md.
"""
