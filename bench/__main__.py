"""``python -m bench``: every benchmark, printed as tables."""

from . import engines, load, service, storage, store_backends

engines.main()
service.main()
load.main()
storage.main()
store_backends.main()
