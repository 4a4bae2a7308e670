"""The application layer: what the commands run besides the check route (the two sides of a
diff and their comparison, snapshots, the replay of recorded traffic); above the engine and the
public API, below the reporters and the CLI (docs/architecture.md)."""
