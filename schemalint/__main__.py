"""``python -m schemalint``."""

from schemalint.cli import main

main()
