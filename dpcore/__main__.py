"""``python -m dpcore``: the batch command line (see :mod:`dpcore.cli`)."""

from .cli import main

raise SystemExit(main())
