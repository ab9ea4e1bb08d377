"""``python -m bench``: every benchmark, printed as tables."""

from . import engines, service

engines.main()
service.main()
