"""``python -m bench``: every benchmark, printed as tables."""

from . import engines

engines.main()
