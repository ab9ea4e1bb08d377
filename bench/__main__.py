"""``python -m bench``: every benchmark, printed as tables."""

from . import engines, load, service

engines.main()
service.main()
load.main()
