"""Lets ``python -m companion`` behave exactly like the ``companion`` console script."""

from companion.cli import main

raise SystemExit(main())
