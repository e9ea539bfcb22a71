"""`python -m interpreter.cli`: the `rules` command without its installed script."""
import sys

from interpreter.cli.main import main

sys.exit(main())
