"""``python -m bench``: every benchmark, printed as tables."""

from . import engines, gif, load, service, storage

engines.main()
service.main()
load.main()
storage.main()
gif.main()
