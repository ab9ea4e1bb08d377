"""``python -m bench``: every benchmark, printed as tables."""

from . import (
    analysis,
    courses,
    engines,
    gif,
    hints,
    load,
    memory,
    puzzles,
    ratings,
    render,
    server_puzzles,
    service,
    storage,
    store_backends,
    tournaments,
)

engines.main()
render.main()
service.main()
load.main()
memory.main()
storage.main()
gif.main()
store_backends.main()
ratings.main()
hints.main()
courses.main()
tournaments.main()
analysis.main()
puzzles.main()
server_puzzles.main()
