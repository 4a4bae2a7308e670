"""The runtime bridge: worker processes that import untrusted tool code (docs/runtime-bridge.md)."""
