"""Every number option of ``idzeva`` (and of ``python -m bench.arena``) has bounds: a value
outside them is refused with one line on stderr and exit status 2, before any work starts;
the values at the bounds are accepted."""

from __future__ import annotations

import io

import pytest

from bench import arena as bench_arena
from bot.cli.main import build_parsers, main


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


ITERATIONS_RANGE = "a whole number from 1 to 1,000,000"
GAMES_RANGE = "a whole number from 1 to 100,000"
ARENA = ("arena", "shax", "--a", "random", "--b", "random")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("best", "shax", "--seed", "1", "--iterations", "-5"), ITERATIONS_RANGE),
        (("best", "shax", "--seed", "1", "--iterations", "0"), ITERATIONS_RANGE),
        (("best", "shax", "--iterations", "1000001"), ITERATIONS_RANGE),
        (("best", "shax", "--iterations", "many"), ITERATIONS_RANGE),
        (("play", "shax", "--bot", "--iterations", "0"), ITERATIONS_RANGE),
        (("play", "shax", "--bot-vs-bot", "--iterations", "1000000000"), ITERATIONS_RANGE),
        ((*ARENA, "--iterations", "0"), ITERATIONS_RANGE),
        ((*ARENA, "--games", "0"), GAMES_RANGE),
        ((*ARENA, "--games", "-3"), GAMES_RANGE),
        ((*ARENA, "--games", "100001"), GAMES_RANGE),
        ((*ARENA, "--games", str(10**30)), GAMES_RANGE),
    ],
)
def test_a_number_out_of_range_is_one_line_exit_2(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # play would make its image folder here
    code, text = run(*argv)
    err = capsys.readouterr().err
    option, value = argv[-2:]
    assert code == 2 and text == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err == f"idzeva {argv[0]}: argument {option}: {words}, not {value!r}\n"
    assert list(tmp_path.iterdir()) == []  # refused before anything was made


def test_the_bounds_are_in_the_help():
    parsers = build_parsers()

    def help_of(command: str) -> str:
        return " ".join(parsers[command].format_help().split())  # unwrapped

    for command in ("best", "play", "arena"):
        assert "(1 to 1,000,000)" in help_of(command), command
    assert "(1 to 100,000)" in help_of("arena")


def test_the_lowest_values_run():
    code, move = run("best", "shax", "--seed", "1", "--iterations", "1")
    assert code == 0 and len(move.split()) == 1
    code, text = run(*ARENA, "--games", "1", "--iterations", "1")
    assert code == 0 and "1 games" in text


def test_the_highest_values_are_accepted():
    """Parsed only: a million iterations is a long search."""
    parsers = build_parsers()
    best = parsers["best"].parse_intermixed_args(["shax", "--iterations", "1000000"])
    assert best.iterations == 1_000_000
    arena = parsers["arena"].parse_intermixed_args([*ARENA[1:], "--games", "100000"])
    assert arena.games == 100_000
    play = parsers["play"].parse_intermixed_args(["shax", "--iterations", "1000000"])
    assert play.iterations == 1_000_000


def test_other_argument_errors_are_one_line_exit_2_too(capsys):
    code, _ = run("arena", "shax", "--a", "random")
    err = capsys.readouterr().err
    assert code == 2
    assert err == "idzeva arena: the following arguments are required: --b\n"


def test_help_of_a_command_still_exits_0(capsys):
    code, _ = run("best", "--help")
    assert code == 0
    assert "usage: idzeva best" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--games", "0", GAMES_RANGE),
        ("--games", "100001", GAMES_RANGE),
        ("--jobs", "0", "a whole number from 1 to 64"),
        ("--jobs", "65", "a whole number from 1 to 64"),
    ],
)
def test_bench_arena_refuses_numbers_out_of_range(option, value, words, capsys):
    with pytest.raises(SystemExit) as stop:
        bench_arena.main([option, value])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert err == f"python -m bench.arena: argument {option}: {words}, not {value!r}\n"
