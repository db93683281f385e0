"""``python -m dpcore``: the batch command line (see :mod:`dpcore.cli`)."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
