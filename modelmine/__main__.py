"""``python -m modelmine``: the command line (see :func:`modelmine.cli.main`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
