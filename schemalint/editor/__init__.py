"""Where tool authors write: the language server (:mod:`schemalint.editor.lsp`) and the MCP server
for coding agents (:mod:`schemalint.editor.agent`), both over stdio (docs/editors.md)."""
