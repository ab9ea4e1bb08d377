"""``python -m bench``: every benchmark, printed as tables."""

from . import engines, render, service

engines.main()
render.main()
service.main()
