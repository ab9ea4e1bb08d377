"""search_moves: the /jikaida move autocomplete filter (pure, no Discord)."""

from __future__ import annotations

import re
import statistics
import time

import pytest

from games.jikaida import Jikaida
from games.jikaida_search import search_moves

# A Poron middlegame with 315 legal moves for Blue (from a random game).
MIDGAME = {
    "variant": "poron",
    "turn": "blue",
    "pieces": {
        "b1": "YJ", "d1": "YPk", "f1": "YKa", "g1": "YD", "h1": "YC", "j1": "YH", "k1": "YJ",
        "l1": "YC", "b2": "YD", "c2": "YD", "d2": "YD", "f2": "YD", "i2": "YD", "k2": "YD",
        "l2": "YD", "a3": "YS", "c3": "YS", "h3": "YS", "j3": "YKa", "l3": "YS", "c4": "YD",
        "e4": "YS", "g4": "YS", "h4": "YD", "k4": "YS", "d5": "YS", "e5": "YK", "k5": "YD",
        "d6": "YS", "g6": "YS", "h6": "YS", "d7": "YPk", "l7": "BP", "c8": "BC", "a12": "BD",
        "d12": "BD", "i12": "BS", "j12": "YP", "b13": "BS", "f13": "BD", "h13": "BS",
        "e14": "BS", "i14": "BD", "k14": "BKa", "c15": "BD", "i15": "BD", "a16": "BS",
        "d16": "BS", "e16": "BS", "k16": "BS", "l16": "BS", "b17": "BD", "e17": "BD",
        "i17": "BD", "l17": "BD", "a18": "BC", "b18": "BJ", "c18": "BD", "d18": "BK",
        "f18": "BKa", "h18": "BPk", "i18": "BPk", "j18": "BH", "k18": "BJ", "l18": "BH",
    },
    "unmoved": [
        "b1", "d1", "f1", "j1", "k1", "l1", "b2", "f2", "k2", "a3", "c3", "h3", "l3", "a16",
        "d16", "e16", "k16", "l16", "b17", "i17", "l17", "a18", "b18", "h18", "i18", "j18",
        "k18",
    ],
    "fluttember": {"yellow": False, "blue": False},
}  # fmt: skip

PROMOTION = {
    "variant": "poron",
    "turn": "yellow",
    "pieces": {"h1": "YK", "f18": "BK", "c17": "YS", "d18": "BKa"},
}


def choices_of(game: Jikaida) -> list[tuple[str, str]]:
    return [(m, game.describe_move(m)) for m in game.legal_moves()]


def moves(game: Jikaida, typed: str, choices: list[tuple[str, str]] | None = None) -> list[str]:
    return [m for m, _ in search_moves(game, choices or choices_of(game), typed)]


def of_piece(game: Jikaida, *codes: str) -> set[str]:
    """Legal moves whose moving piece has one of these codes (worked out independently)."""
    pieces = game.piece_codes()
    out = set()
    for m in game.legal_moves():
        frm = re.match(r"[a-l]\d{1,2}", m)
        assert frm is not None
        if pieces[frm.group(0)][1:] in codes:
            out.add(m)
    return out


@pytest.fixture
def start() -> Jikaida:
    return Jikaida([])


@pytest.fixture
def mid() -> Jikaida:
    return Jikaida.from_position(MIDGAME)


# ---- empty and unknown input ----------------------------------------------------------


def test_empty_input_keeps_all_in_given_order(start):
    ch = choices_of(start)
    assert search_moves(start, ch, "") == ch
    assert search_moves(start, ch, "   ") == ch
    rev = ch[::-1]
    assert search_moves(start, rev, "") == rev


@pytest.mark.parametrize("typed", ["yellow", "banana", "z9", "m19", "c3 banana", "=k", "q"])
def test_unknown_words_match_nothing(start, typed):
    assert moves(start, typed) == []


def test_results_are_pairs_from_choices(start):
    ch = choices_of(start)
    out = search_moves(start, ch, "swod")
    assert out and all(pair in ch for pair in out)
    assert out[0][1].startswith("Swod Mortil")


# ---- squares ----------------------------------------------------------------------------


def test_swod_c3_opening_bonus(start):
    # unmoved Swod: straight 1-3 (c4 c5 c6), diagonally 1-3 each way (b4 a5 / d4 e5 f6)
    expected = {"c3-c4", "c3-c5", "c3-c6", "c3-b4", "c3-a5", "c3-d4", "c3-e5", "c3-f6"}
    assert {m for m in start.legal_moves() if m.startswith("c3")} == expected
    assert set(moves(start, "swod c3")) == expected
    assert set(moves(start, "c3 swod")) == expected
    assert set(moves(start, "S c3")) == expected


def test_square_matches_from_and_to_from_first(start):
    got = moves(start, "c3")
    # the Pallan may take its own Swod on c3
    assert set(got) == {m for m in start.legal_moves() if m.startswith("c3")} | {"g1xc3"}
    assert got[-1] == "g1xc3"
    assert moves(start, "from c3") == got[:-1]
    assert moves(start, "to c3") == ["g1xc3"]


def test_to_square(start):
    assert set(moves(start, "d4")) == {"c3-d4", "d3-d4", "e3-d4", "g1-d4"}
    assert set(moves(start, "swod to c4")) == {"b3-c4", "c3-c4", "d3-c4"}


@pytest.mark.parametrize(
    "typed", ["mortil c3", "Mortil C3", "MORTIL c3", "mortilc3", "mort c3", "mo c3", "c3"]
)
def test_drin_notation_equals_global(start, typed):
    assert moves(start, typed) == moves(start, "c3")


def test_other_drins(mid):
    # Leem D6 = j12 (a Yellow Pallan that Blue can take); Wersting E4 = e16
    assert moves(mid, "leem d6") == moves(mid, "j12")
    assert moves(mid, "Wersting E4") == moves(mid, "e16") != []
    assert moves(mid, "chav e6") == moves(mid, "k18")


def test_drin_word_alone_means_the_drin(start):
    got = moves(start, "zhantil")
    assert got and all(m[0] in "ghijkl" or m[3] in "ghijkl" for m in got)
    assert moves(start, "leem") == []  # nothing reaches Leem in one move


def test_file_letter_that_is_no_piece_letter(start):
    got = moves(start, "e")
    assert got and all("e" in (m[0], m[3]) for m in got)


def test_one_digit_square_also_finds_longer_squares():
    game = Jikaida.from_position(PROMOTION)
    assert set(moves(game, "c1")) == {m for m in game.legal_moves() if m.startswith("c17")}


# ---- pieces -------------------------------------------------------------------------------


def test_pallan_at_start(start):
    pallan = {m for m in start.legal_moves() if m.startswith("g1")}
    assert len(pallan) == 44
    for typed in ("pallan", "Pallan", "pal", "P", "p", "pallans", "pallan g1", "g1 p"):
        assert set(moves(start, typed)) == pallan, typed


def test_kapt_at_start_has_no_move(start):
    assert of_piece(start, "Ka") == set()
    assert moves(start, "Ka") == []
    assert moves(start, "kapt") == []
    assert moves(start, "ka f1") == []


def test_piece_letters_exact_code_wins(mid):
    assert of_piece(mid, "P") and of_piece(mid, "Pk") and of_piece(mid, "Ka")
    assert set(moves(mid, "p")) == of_piece(mid, "P")  # not the Paktuns
    assert set(moves(mid, "Pk")) == of_piece(mid, "Pk")
    assert set(moves(mid, "paktun")) == of_piece(mid, "Pk")
    assert set(moves(mid, "pa")) == of_piece(mid, "P", "Pk")
    assert set(moves(mid, "ka")) == of_piece(mid, "Ka")
    assert set(moves(mid, "kapt")) == of_piece(mid, "Ka")
    assert set(moves(mid, "k")) == of_piece(mid, "K")
    assert set(moves(mid, "king")) == of_piece(mid, "K")
    assert set(moves(mid, "ki")) == of_piece(mid, "K")
    assert set(moves(mid, "c")) == of_piece(mid, "C")  # Chuktar, not file c
    assert set(moves(mid, "d")) == of_piece(mid, "D")  # Deldar, not file d
    assert set(moves(mid, "s")) == of_piece(mid, "S")
    assert set(moves(mid, "swods")) == of_piece(mid, "S")


def test_piece_and_square(mid):
    assert set(moves(mid, "ka f18")) == {m for m in mid.legal_moves() if m.startswith("f18")}
    assert set(moves(mid, "f18 kapt")) == set(moves(mid, "ka f18"))
    assert moves(mid, "swod f18") == []  # a Kapt stands there


# ---- fragments ----------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["c3-c4", "c3 c4", "c3c4", "C3-C4", "mortil c3-mortil c4"])
def test_full_move_first(start, typed):
    assert moves(start, typed) == ["c3-c4"]


@pytest.mark.parametrize("typed", ["c3-c", "c3 c", "c3c", "c3 - c"])
def test_fragment_prefix(start, typed):
    assert moves(start, typed) == ["c3-c4", "c3-c5", "c3-c6"]


def test_capture_fragment(start):
    assert moves(start, "g1xa1") == ["g1xa1"]
    assert moves(start, "g1-a1") == ["g1xa1"]  # "-" also finds the capture
    assert moves(start, "c3xd4") == []  # c3-d4 is no capture
    assert set(moves(start, "g1x")) == {m for m in start.legal_moves() if m.startswith("g1x")}


def test_exact_canonical_ranks_first(mid):
    some = mid.legal_moves()[0]
    assert moves(mid, some)[0] == some


# ---- captures, Fluttember -------------------------------------------------------------


def test_capture_filter(start, mid):
    caps = {m for m in start.legal_moves() if "x" in m}
    assert caps and set(moves(start, "takes")) == caps
    assert set(moves(start, "x")) == caps
    assert set(moves(start, "capture")) == caps
    assert moves(start, "takes chuktar") == ["g1xa1", "g1xl1"]
    assert moves(start, "x pallan") == []  # nobody can take a Pallan
    # a piece before "takes" moves, a piece after it is taken
    assert set(moves(mid, "chuktar takes")) == {"c8xc4", "c8xd7"}
    assert set(moves(mid, "pallan x")) == {m for m in of_piece(mid, "P") if "x" in m}
    assert moves(mid, "takes pallan") == ["k14xj12"]
    assert moves(mid, "x c") == ["l7xh1"]  # the Chuktar taken is Yellow's h1


@pytest.mark.parametrize("typed", ["<>", "fluttember", "Flutt", "king", "K", "h1<>", "swap"])
def test_fluttember(start, typed):
    flutter = {m for m in start.legal_moves() if "<>" in m}
    assert flutter == {"h1<>a1", "h1<>f1", "h1<>i1", "h1<>l1"}
    assert set(moves(start, typed)) == flutter


def test_fluttember_fragment(start):
    assert moves(start, "h1<>f1") == ["h1<>f1"]
    assert moves(start, "f1<>h1") == ["h1<>f1"]
    assert moves(start, "h1<>f") == ["h1<>f1"]
    assert moves(start, "king's fluttember f1") == ["h1<>f1"]


# ---- promotion ----------------------------------------------------------------------------


def test_promotion_entries_are_separate():
    game = Jikaida.from_position(PROMOTION)
    legal = game.legal_moves()
    swod = [m for m in legal if m.startswith("c17")]
    assert len(swod) == 21  # c18, b18 and xd18, seven choices each
    assert moves(game, "c17") == swod
    assert moves(game, "swod c17") == swod
    assert moves(game, "c17-c18=") == [m for m in swod if m.startswith("c17-c18=")]
    assert moves(game, "c17-c18=p") == ["c17-c18=P", "c17-c18=Pk"]  # exact letter first
    assert moves(game, "c17-c18=P")[0] == "c17-c18=P"
    assert moves(game, "c17 c18 = ka") == ["c17-c18=Ka"]
    assert moves(game, "c17-c18=kapt") == ["c17-c18=Ka"]
    assert moves(game, "c17xd18=d") == ["c17xd18=D"]
    assert set(moves(game, "=pk")) == {"c17-c18=Pk", "c17-b18=Pk", "c17xd18=Pk"}
    assert set(moves(game, "promote")) == set(swod)
    assert set(moves(game, "promote kapt")) == {"c17-c18=Ka", "c17-b18=Ka", "c17xd18=Ka"}
    assert set(moves(game, "swod kapt")) == {"c17-c18=Ka", "c17-b18=Ka", "c17xd18=Ka"}
    assert set(moves(game, "takes kapt")) == {m for m in swod if "x" in m}
    # the description, pasted back, finds its own move
    desc = dict(choices_of(game))["c17xd18=H"]
    assert moves(game, desc) == ["c17xd18=H"]


# ---- Pastang ------------------------------------------------------------------------------


def test_pastang():
    game = Jikaida(["pastang"])
    legal = game.legal_moves()
    assert moves(game, "b2") == [m for m in legal if m.startswith("b2")]
    assert set(moves(game, "swod")) == of_piece(game, "S") == set(legal)
    assert set(moves(game, "d")) == of_piece(game, "D")
    assert moves(game, "d2 d4") == ["d2-d4"]
    assert moves(game, "b2-b") == ["b2-b3", "b2-b4"]
    assert moves(game, "x") == []


def test_every_description_finds_its_move(mid):
    ch = choices_of(mid)
    for move, desc in ch:
        assert search_moves(mid, ch, desc)[0] == (move, desc)
        assert search_moves(mid, ch, move)[0] == (move, desc)


# ---- speed (reported, not asserted tightly) -----------------------------------------------


def test_timing(start, mid):
    queries = ["swod c3", "c3", "pallan", "Ka", "mortil c3", "c3-c", "takes", "p", "e", "zz"]
    for game, ch in ((start, choices_of(start)), (mid, choices_of(mid))):
        for ch_ in (ch, ch * 2):  # ch * 2 stands in for a 600-move list
            times = []
            for _ in range(5):
                for q in queries:
                    t = time.perf_counter()
                    search_moves(game, ch_, q)
                    times.append(time.perf_counter() - t)
            p50 = statistics.median(times) * 1000
            print(
                f"search_moves: {len(ch_)} choices p50 {p50:.2f} ms max {max(times) * 1000:.2f} ms"
            )
            assert p50 < 1000  # sanity only
