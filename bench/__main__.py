"""``python -m bench``: every benchmark, printed as tables."""

from . import engines, service, storage

engines.main()
service.main()
storage.main()
