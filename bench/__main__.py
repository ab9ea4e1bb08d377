"""``python -m bench``: every benchmark, printed as tables."""

from . import engines, load, service, storage

engines.main()
service.main()
load.main()
storage.main()
