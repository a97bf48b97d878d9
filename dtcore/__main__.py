"""``python -m dtcore``: the command line (see dtcore/cli/)."""

import sys

from .cli import main

sys.exit(main())
