# Idzeva: `make test` and `make run` set everything up themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test lint format run bench bench-load bench-scale bench-opponent arena fit-weights docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Test files in parallel (pytest-xdist): one worker per core, each with its own PostgreSQL
# (tests/pg.py). About half of one process's time is spent waiting (threads, subprocesses,
# the database), so two workers keep both cores of CI's machine busy. TEST_WORKERS=0: one process.
TEST_WORKERS ?= auto

# Bytecode cached (__pycache__, ignored by git) even where the environment says not to: the
# workers, the bot processes and the process pools the tests start would otherwise each compile
# the same sources again (an empty value is "unset" to Python).
test: export PYTHONDONTWRITEBYTECODE :=
test: lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal

run: $(STAMP)
	$(BIN)/idzeva run

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	$(BIN)/python -m bench

bench-load: $(STAMP)
	$(BIN)/python -m bench.load

# Several processes on PostgreSQL against SQLite, and queries on a large database
# (1,000,000 finished games: about 5 min to build on PostgreSQL, 8 on SQLite, on 2 busy cores;
# ARGS="--finished 100000" for a quicker run, ARGS="--keep /tmp/idzeva-scale" to build once).
bench-scale: $(STAMP)
	$(BIN)/python -m bench.scale $(ARGS)

# The bot opponent as players meet it: a human's move, then the bot's board, per level.
bench-opponent: $(STAMP)
	$(BIN)/python -m bench.opponent $(ARGS)

# The bot's strength and thinking time per game (hours; see bench/arena.py for options).
arena: $(STAMP)
	$(BIN)/python -m bench.arena $(ARGS)

# The dice games' evaluation weights fitted by self-play (search/weights/<game>.json; about
# an hour per game on 2 busy cores; see bench/fit_weights.py), e.g.
# ARGS="--game sachidjun --games 300 --jobs 2 --max-plies 1000".
fit-weights: $(STAMP)
	$(BIN)/python -m bench.fit_weights $(ARGS)

# The arena tables in docs/bot.md, and the bot's rating per game and level (fitted from the
# same runs: bot/storage/bot_ratings.json and its table in docs/bot.md), made anew from the
# runs in docs/data/arena.jsonl.
docs: $(STAMP)
	$(BIN)/python -m bench.arena --table docs/data/arena.jsonl --docs docs/bot.md
	$(BIN)/python -m bench.bot_ratings docs/data/arena.jsonl --json bot/storage/bot_ratings.json --docs docs/bot.md

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
