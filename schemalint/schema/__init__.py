"""JSON Schema utilities: walking, object shapes, dialects, draft-07 rendering."""
