"""``python -m devicelens run train.py [args...]``: see :mod:`devicelens.scripts.run`."""

from __future__ import annotations

import sys

from .scripts.run import main

if __name__ == "__main__":
    sys.exit(main())
