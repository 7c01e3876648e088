"""The spoiler-free result line: worked deals symbol by symbol, and random runs of every game
and variant that must never show a card, must count every room, turn and hand, and must fit
in one Discord message."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.recap import (
    INVITE,
    LIMIT,
    ROW,
    legend_line,
    legend_text,
    recap,
    result_line,
    run_result_line,
)
from rules import GAMES, IllegalAction, plugin
from rules.clear.engine import DECK as CLEAR_DECK
from rules.clear.recap import MORE_SLAIN, NONE_SLAIN, ONE_SLAIN, STUCK, slain_symbol
from rules.donsol.engine import DECK as DONSOL_DECK
from rules.recap import RESIGNED
from rules.tomb.recap import TURNED_BACK

CARD_CODE = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[SHDC](?![0-9A-Za-z])|\b[RB]J\b")
SUIT_SYMBOLS = re.compile("[♠♥♦♣♤♡♢♧🃏\U0001f0a0-\U0001f0ff]")


def width(text: str) -> int:
    """Length as Discord counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


#: Every square a share line's grid may hold (one width, one colour each).
SQUARES = set("🟩🟨🟧🟥🟦🟪🟫⬜")


def rows(line: str) -> list[str]:
    """The grid of a share line: the lines under the score, before the legend and the
    invitation (a cut grid ends with its "… and N more")."""
    return [ln for ln in line.split("\n")[2:]
            if ln != INVITE and (set(ln) <= SQUARES or ln.startswith("…"))]


# ----- Donsol ---------------------------------------------------------------------------------

#: Four rooms, top first; the rest of the deck follows in canonical order.
DONSOL_ROOMS = "5D 3C 2S 4H  10C 9H 8D 7S  6H 2D 3D 4D  5C 6C 7C 8C".split()
DONSOL_DEAL = DONSOL_ROOMS + [c for c in DONSOL_DECK if c not in DONSOL_ROOMS]
DONSOL_MOVES = [
    # Room 1: a 5♦ shield absorbs 3♣ and 2♠; 4♥ at full health heals nothing.
    "take 5D", "take 3C", "take 2S", "take 4H",
    # Room 2: 10♣ breaks the shield (10 damage), 9♥ heals 9: damage wins.
    "take 10C", "take 9H", "take 8D", "take 7S",
    # Room 3: 6♥ heals 1, then three shields: healed, no damage.
    "take 6H", "take 2D", "take 3D", "take 4D",
    # Room 4: 5♣ hits for 1 through the 4♦, then escape: escaping wins.
    "take 5C", "escape",
]


def test_donsol_rooms_blocked_hurt_healed_escaped() -> None:
    # Room 2 hit for 10 (a third of 21 or more; the potion after does not undo it): a heavy
    # hit; room 4 cost 1 but escaping wins.
    assert recap("donsol", "normal", 7, DONSOL_MOVES, DONSOL_DEAL) == ["🟩", "🟧", "🟩", "🟦"]


def test_donsol_room_just_dealt_has_no_symbol_and_a_room_left_midway_is_resigned() -> None:
    assert recap("donsol", "normal", 7, DONSOL_MOVES[:4], DONSOL_DEAL) == ["🟩"]
    assert recap("donsol", "normal", 7, DONSOL_MOVES[:6], DONSOL_DEAL) == ["🟩", RESIGNED]
    assert recap("donsol", "normal", 7, [], DONSOL_DEAL) == []


def test_donsol_escaping_the_first_room_at_once_and_dying() -> None:
    deal = ["RJ", *(c for c in DONSOL_DECK if c != "RJ")]
    assert recap("donsol", "hard", 1, ["take RJ"], deal) == ["🟥"]
    line = run_result_line("donsol", "hard", 12, 1, ["take RJ"], deck=deal, player="alice")
    assert line == (
        "Donsol #12 (hard) · alice\n💀 died after 1/54 cards\n🟥\n🟥 died\n"
        "Play today's deal: /daily"
    )
    # Escape the first room untouched; the next room is the reshuffle's, so only its own
    # symbol is known: the bare red joker that kills at once is somewhere in the dungeon.
    assert recap("donsol", "normal", 1, ["escape"], deal) == ["🟦"]


def test_donsol_resigned_line() -> None:
    line = run_result_line(
        "donsol", "normal", 3, 7, DONSOL_MOVES, deck=DONSOL_DEAL, resigned=True
    )
    assert line.split("\n")[:4] == [
        "Donsol #3 (normal)", "🏳️ resigned · 13/54 cards, 20 HP", "🟩🟧🟩🟦",
        "🟩 unhurt · 🟧 heavy hit · 🟦 escaped",
    ]


# ----- Tomb of Four Kings (the spec's worked examples) ---------------------------------------


@pytest.mark.parametrize(
    ("deck", "moves", "symbols", "outcome"),
    [
        # E2: trap won, turn back after turn 1: out at once.
        ("4D 9S", ["flip", "retreat"], ["🟩", "🟦"], "escaped"),
        # E5b: 8 then 1 more damage against the 10♠: dead in turn 1.
        ("10S 2C 9C", ["flip"], ["🟥"], "dead"),
        # E6: endure, dodge, 9♦ slays the 9♠: won.
        ("JH 9S 8C 3C 9D", ["flip", "endure", "dodge"], ["🟩"], None),
        # E7: T1 won, T2 bought off with 7♦, turn back, T3 (the retreat) won.
        (
            "7D 10C KS 7S 2C 2S",
            ["flip", "flip", "drop 7D", "retreat", "flip"],
            ["🟩", "🟨", "🟦", "🟩"],
            "escaped",
        ),
        # E8: T2's door fails and discards six, the scroll burns for the 4th Ace.
        (
            "RJ 4D 4S AS 9C 3D AH AD 2S AC 3S 4C 5C 6S",
            ["flip", "flip", "retreat", "flip"],
            ["🟩", "🟧", "🟦", "🟩"],
            "escaped",
        ),
        # E9: keep delving; A♣ is the 4th Ace with no scroll.
        ("AS AH KS 4C 8S AD 3S AC", ["flip", "flip", "flip"], ["🟩", "🟪"], "lost_in_dark"),
        # E12: T2's trap is lost, T3 won, turn back; the retreat's 10♠ kills.
        (
            "2C 5S KH 9D 4C 3D 6S 10S 3C",
            ["flip", "flip", "flip", "retreat", "flip"],
            ["🟩", "🟧", "🟩", "🟦", "🟥"],
            "dead",
        ),
    ],
)
def test_tomb_turns(
    deck: str, moves: list[str], symbols: list[str], outcome: str | None
) -> None:
    assert recap("tomb", "standard", 0, moves, deck.split()) == symbols
    engine = GAMES["tomb"]
    state = engine.new(0, "standard", deck.split())
    for move in moves:
        state = engine.apply(state, move)
    assert engine.view(state)["outcome"] == outcome


def test_tomb_turn_left_midway_is_resigned() -> None:
    # E6 stopped with the first blow landing.
    assert recap("tomb", None, 0, ["flip"], "JH 9S 8C 3C 9D".split()) == [RESIGNED]


def test_tomb_line_names_no_variant() -> None:
    line = run_result_line("tomb", None, 40, 0, ["flip", "retreat"], deck=["4D", "9S"])
    assert line.split("\n")[:3] == ["Tomb of Four Kings #40", "🚪 0 Kings, 4 points", "🟩🟦"]


# ----- Clear the Dungeon ----------------------------------------------------------------------

#: Piles (bottom to top): Q♥ K♥ J♥ | Q♦ K♦ J♦ | Q♣ K♣ J♣ | J♠ Q♠ K♠.
CLEAR_MONSTERS = "QH KH JH QD KD JD QC KC JC JS QS KS".split()
#: Hands 1–3, then the rest of the power deck in canonical order.
CLEAR_HANDS = "10C 2C 5H  6C 2H 10S  9D 3S 4D".split()
CLEAR_DEAL = (
    CLEAR_MONSTERS
    + CLEAR_HANDS
    + [c for c in CLEAR_DECK if c not in CLEAR_MONSTERS and c not in CLEAR_HANDS]
)
CLEAR_MOVES = [
    # Hand 1 slays J♥.
    "put 10C 1", "put 2C 1", "put 5H 1",
    # Hand 2 goes to the reserve (10♠ on top).
    "reserve 6C", "reserve 2H", "reserve 10S",
    # Hand 3: two cards on J♦, the whole reserve on J♣ (slain), the last card slays J♦.
    "put 9D 2", "put 3S 2", "put 10S 3", "put 2H 3", "put 6C 3", "put 4D 2",
]


def test_clear_slain_per_hand() -> None:
    assert recap("clear", "standard", 5, CLEAR_MOVES, CLEAR_DEAL) == ["🟩", "⬜", "🟦"]
    line = run_result_line("clear", "standard", 9, 5, CLEAR_MOVES, deck=CLEAR_DEAL)
    assert line.split("\n")[:2] == ["Clear the Dungeon #9", "⏳ 3 of 12 monsters"]
    # One more move in hand 4, then the run is resigned there.
    resigned = run_result_line(
        "clear", "standard", 9, 5, [*CLEAR_MOVES, "reserve AS"], deck=CLEAR_DEAL,
        resigned=True,
    )
    assert resigned.split("\n")[1:4] == [
        "🏳️ resigned · 3 of 12 monsters", "🟩⬜🟦🟫",
        "⬜ none slain · 🟩 one slain · 🟦 two or more · 🟫 resigned",
    ]


def test_slain_symbols() -> None:
    assert [slain_symbol(n) for n in range(4)] == [NONE_SLAIN, ONE_SLAIN, MORE_SLAIN, MORE_SLAIN]


# ----- the line -------------------------------------------------------------------------------


def test_outcomes_open_the_score() -> None:
    assert result_line("donsol", "easy", 1, "won", "won with 14 HP", ["🟨"]) == (
        "Donsol #1 (easy)\n🏆 won with 14 HP\n🟨\n🟨 hurt\nPlay today's deal: /daily"
    )
    assert result_line("tomb", "standard", 2, "dead", "dead — 0", []) == (
        "Tomb of Four Kings #2\n💀 dead — 0\nPlay today's deal: /daily"
    )
    assert result_line("clear", "standard", 3, "stuck", "9 of 12 monsters", ["🟩"],
                       player="bob").split("\n")[:2] == [
        "Clear the Dungeon #3 · bob", "🧱 9 of 12 monsters"]
    # The core records a resignation as the outcome "lost".
    assert result_line("donsol", "normal", 4, "lost", "3/54 cards, 21 HP", [], resigned=True) == (
        "Donsol #4 (normal)\n🏳️ resigned · 3/54 cards, 21 HP\nPlay today's deal: /daily"
    )


def test_the_legend_names_only_the_squares_shown_in_the_legends_order() -> None:
    assert legend_line("donsol", ["🟥", "🟩", "🟩", "🟦"]) == "🟩 unhurt · 🟦 escaped · 🟥 died"
    assert legend_line("tomb", ["🟩", "🟦", "🟪"]) == (
        "🟩 turn won · 🟦 turned back · 🟪 lost in the dark"
    )
    assert legend_line("clear", []) == ""


def test_rows_of_ten_all_one_width() -> None:
    symbols = ["🟥", "🟩", "🟨"] * 9  # 27
    lines = rows(result_line("donsol", "normal", 5, "dead", "died after 54/54 cards", symbols))
    assert lines == ["".join(symbols[:10]), "".join(symbols[10:20]), "".join(symbols[20:])]
    assert {width(line) for line in lines[:2]} == {20}


@pytest.mark.parametrize("count", [1_000, 5_000])
@pytest.mark.parametrize("symbol", ["🟩", "🟦", "🟨"])
def test_a_huge_row_is_cut_to_one_message(count: int, symbol: str) -> None:
    line = result_line("donsol", "easy", 99_999, "won", "won with 21 HP", [symbol] * count,
                       player="x" * 40)
    assert width(line) <= LIMIT
    assert line.endswith(INVITE)
    *kept, last = rows(line)
    shown = sum(r.count(symbol) for r in kept)
    assert 0 < shown < count
    assert all(r.count(symbol) == ROW for r in kept[:-1])
    assert last == f"… and {count - shown} more"


def test_a_row_that_just_fits_is_not_cut() -> None:
    head = "Donsol #1 (normal)\n💀 died after 54/54 cards"
    tail = "\n🟦 escaped\n" + INVITE
    room = LIMIT - width(head) - width(tail) - 1
    # "🟦" is 2 UTF-16 units; each row of ten adds a newline but the first.
    count = (room + 1) // 21 * ROW
    line = result_line("donsol", "normal", 1, "dead", "died after 54/54 cards", ["🟦"] * count)
    assert "more" not in line
    assert line.count("🟦") == count + 1  # and once in the legend
    assert width(line) <= LIMIT


def test_illegal_move_is_refused_with_its_index() -> None:
    with pytest.raises(IllegalAction) as caught:
        recap("donsol", "normal", 7, ["take 5D", "take 5D"], DONSOL_DEAL)
    assert caught.value.index == 1
    with pytest.raises(ValueError, match="unknown game"):
        recap("chess", "normal", 7, [])


def test_legend_covers_every_game_and_shows_no_card() -> None:
    assert all(plugin(key).recap.legend for key in GAMES)
    for key in GAMES:
        text = legend_text(key)
        assert len(text.splitlines()) == len(plugin(key).recap.legend)
        assert RESIGNED in text
        assert not CARD_CODE.search(text) and not SUIT_SYMBOLS.search(text)


# ----- random runs of every game and variant ------------------------------------------------

GAME_VARIANTS = [(key, variant) for key, game in GAMES.items() for variant in game.variants]
MAX_MOVES = 400  # Donsol easy/hard may escape rooms without monsters again and again


def rooms_played(key: str, moves: list[str], views: list[dict]) -> tuple[int, bool]:
    """How many rooms, turns or hands saw a move, and whether the run stopped part-way
    through the last one; counted from other signs than the recap's: the engine's "next
    room" and "new hand" sentences, Tomb's final counts."""
    final = views[-1]
    if key == "tomb":
        midway = not final["over"] and final["encounter"] is not None
        ended_in_turn = final["outcome"] in ("dead", "lost_in_dark")
        return final["delve_turns"] + final["retreat_turns"] + (midway or ended_in_turn), midway
    sign = "A new hand:" if key == "clear" else "The next room:"
    dealt = [any(sign in e for e in v["events"]) for v in views[1:]]
    last_open = bool(moves) and not dealt[-1]
    return sum(dealt) + last_open, last_open and not final["over"]


def symbol_set(key: str) -> set[str]:
    return {s for s, _ in plugin(key).recap.legend}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(GAME_VARIANTS),
    st.integers(min_value=0, max_value=2**63 - 1),
    st.integers(min_value=0, max_value=2**32),
    st.one_of(st.none(), st.integers(min_value=0, max_value=MAX_MOVES)),
    st.integers(min_value=1, max_value=50_000),
)
def test_random_runs(
    game_variant: tuple[str, str], seed: int, play_seed: int, stop: int | None, day: int
) -> None:
    key, variant = game_variant
    engine = GAMES[key]
    rng = random.Random(play_seed)
    state = engine.new(seed, variant)
    moves: list[str] = []
    views = [engine.view(state)]
    limit = MAX_MOVES if stop is None else stop
    while not engine.is_over(state) and len(moves) < limit:
        move = rng.choice(engine.actions(state))
        state = engine.apply(state, move)
        moves.append(move)
        views.append(engine.view(state))
    final = views[-1]
    resigned = not final["over"]

    symbols = recap(key, variant, seed, moves)
    line = run_result_line(key, variant, day, seed, moves, resigned=resigned, player="alice")

    assert not CARD_CODE.search(line), line
    assert not SUIT_SYMBOLS.search(line), line
    assert width(line) <= LIMIT
    played, midway = rooms_played(key, moves, views)
    assert len([s for s in symbols if key != "tomb" or s != TURNED_BACK]) == played
    name, score, *_ = line.split("\n")
    assert name.startswith(f"{engine.title} #{day}") and name.endswith(" · alice")
    assert final["score_text"] in score
    assert ("resigned" in score) == resigned
    assert line.endswith("\n" + INVITE)
    if "more" not in line:
        assert "".join(rows(line)) == "".join(symbols)
    if symbols:
        assert line.split("\n")[-2] == legend_line(key, symbols)
    assert all(width(r) <= 2 * ROW for r in rows(line) if not r.startswith("…"))

    assert set(symbols) <= symbol_set(key) <= SQUARES
    assert RESIGNED not in symbols[:-1]
    assert (symbols[-1:] == [RESIGNED]) == midway
    if key in ("donsol", "scoundrel"):
        leave = "escape" if key == "donsol" else "avoid"
        assert symbols.count("🟦") == moves.count(leave)
        assert ("🟥" in symbols) == (final["outcome"] == "dead")
    elif key == "tomb":
        turned_back = "retreat" in moves
        assert symbols.count(TURNED_BACK) == turned_back
        if turned_back:
            assert symbols.index(TURNED_BACK) == final["delve_turns"]
        assert (symbols[-1:] == ["🟥"]) == (final["outcome"] == "dead")
        assert (symbols[-1:] == ["🟪"]) == (final["outcome"] == "lost_in_dark")
    else:
        assert (symbols[-1:] == [STUCK]) == (final["outcome"] == "stuck")
        at_least = {NONE_SLAIN: 0, ONE_SLAIN: 1, MORE_SLAIN: 2}
        assert sum(at_least.get(s, 0) for s in symbols) <= final["slain"]
