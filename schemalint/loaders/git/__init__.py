"""Reading tool sources as they were at a git revision.

* :mod:`~schemalint.loaders.git.commands`: ``git`` itself (revisions, trees, blobs), read-only;
* :mod:`~schemalint.loaders.git.worktree`: Python ``module:attr`` sources imported from a
  temporary ``git worktree`` at a commit.

Every failure raises :class:`~schemalint.loaders.git.commands.GitError` with a message naming
the revision and path; :mod:`schemalint.commands.diff_sources` turns it into a ``DiffError`` (exit 2).
"""
