"""``python -m bench``: every benchmark, printed as tables."""

from . import engines, gif, hints, load, puzzles, ratings, render, service, storage, store_backends

engines.main()
render.main()
service.main()
load.main()
storage.main()
gif.main()
store_backends.main()
ratings.main()
hints.main()
puzzles.main()
