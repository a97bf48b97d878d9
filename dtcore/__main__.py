"""``python -m dtcore``: the command line (see dtcore/cli/)."""

import sys

from dtcore.cli import main

sys.exit(main())
