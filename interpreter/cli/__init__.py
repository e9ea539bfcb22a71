"""The `rules` command (`main`) and its `simulate` subcommand (`simulate`)."""
from interpreter.cli.main import main

__all__ = ["main"]
