"""Entry point for `python3 -m codegen` from the source tree."""

import sys

from .cli import main

sys.exit(main())
