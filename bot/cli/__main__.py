"""``python -m bot.cli``: the ``idzeva`` command."""

import sys

from bot.cli.main import main

sys.exit(main())
