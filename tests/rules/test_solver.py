"""The solvers: their best scores match a plain exhaustive search, and their lines replay."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import GAMES, plugin, replay
from rules.clear.engine import CLEAR, POWER, VALUE, ClearState
from rules.donsol.engine import DECK_SIZE, DONSOL, DonsolState
from rules.search import Search
from rules.solver import (
    Solution,
    best_along,
    best_from,
    solve,
    turning_point,
    turning_text,
)
from rules.tomb.engine import DECK as TOMB_DECK
from rules.tomb.engine import TOMB

SMALL = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def exhaustive(game: Any, state: Any, *, no_double_escape: bool = False) -> tuple[int, ...]:
    """The best final score from ``state``: every line, nothing pruned, nothing remembered.

    ``no_double_escape``: never escape right after an escape (the solver's documented rule
    on Donsol's easy and hard, where the tree would otherwise be infinite).
    """

    def best(s: Any, escaped: bool) -> tuple[int, ...]:
        moves = game.actions(s)
        if not moves:
            return tuple(game.score(s))
        return max(
            best(game.apply(s, a), a == "escape")
            for a in moves
            if not (no_double_escape and escaped and a == "escape")
        )

    return best(state, False)


def check_line(key: str, state: Any, found: Solution) -> None:
    """The solution's line, applied to ``state`` through the engine, ends at its score."""
    game = GAMES[key]
    for action in found.actions:
        state = game.apply(state, action)
    assert game.actions(state) == []
    assert game.score(state) == found.score
    assert found.won == (state.outcome == "won")


# ----- Tomb: the engine takes short decks -------------------------------------------------

short_tomb_decks = st.lists(st.sampled_from(TOMB_DECK), min_size=3, max_size=11, unique=True)


@SMALL
@given(deck=short_tomb_decks)
def test_tomb_best_score_of_short_decks_matches_exhaustive_search(deck: list[str]) -> None:
    found = solve("tomb", 1, deck=deck)
    assert found.exact
    assert tuple(found.score) == exhaustive(TOMB, TOMB.new(1, deck=deck))
    final = replay("tomb", None, 1, found.actions, deck)
    assert TOMB.score(final) == found.score


def test_tomb_solver_turns_back_before_the_deadly_trap() -> None:
    # Turn 1 (one "flip" plays it out): a door (2♣) opened by 5♣, with K♠ in it. Turn 2
    # would meet a trap of 10 that 2♠ cannot disarm (8 damage), and turn 3's 9♠ would kill.
    deck = ["2C", "KS", "5C", "10D", "2S", "9S", "3D", "4D"]
    found = solve("tomb", 7, deck=deck)
    assert found.exact and found.score == list(exhaustive(TOMB, TOMB.new(7, deck=deck)))
    assert found.score == [1, 10, 1]  # the King, out alive
    assert found.actions == ["flip", "retreat"]
    assert found.text == TOMB.score_text(replay("tomb", None, 7, found.actions, deck))


# ----- Donsol: positions near the end of a full deck --------------------------------------


def donsol_endgame(
    room: list[str], dungeon: list[str], hp: int, shield: str | None, variant: str = "normal"
) -> DonsolState:
    xp = DECK_SIZE - len(room) - len(dungeon)
    return DonsolState(
        variant=variant, seed=11, stream=60, dungeon=tuple(dungeon), room=tuple(room), hp=hp,
        shield=shield, xp=xp, first_room=False,
    )


donsol_cards = [c for c in DONSOL.new(3).dungeon]


@st.composite
def donsol_endgames(draw: st.DrawFn, variant: str = "normal") -> DonsolState:
    cards = draw(st.lists(st.sampled_from(donsol_cards), min_size=3, max_size=7, unique=True))
    cut = min(4, len(cards) - 1)
    shields = [c for c in donsol_cards if c[-1] == "D" and c not in cards]
    shield = draw(st.one_of(st.none(), st.sampled_from(shields)))
    hp = draw(st.integers(1, 21))
    return donsol_endgame(cards[:cut], cards[cut:], hp, shield, variant)


@SMALL
@given(state=donsol_endgames())
def test_donsol_endgames_match_exhaustive_search(state: DonsolState) -> None:
    found = best_from("donsol", state)
    assert found.exact
    assert tuple(found.score) == exhaustive(DONSOL, state)
    check_line("donsol", state, found)


@SMALL
@given(state=donsol_endgames("hard"))
def test_donsol_hard_endgames_match_exhaustive_search(state: DonsolState) -> None:
    found = best_from("donsol", state)
    assert found.exact
    assert tuple(found.score) == exhaustive(DONSOL, state, no_double_escape=True)
    check_line("donsol", state, found)


@SMALL
@given(
    state=donsol_endgames(),
    sick=st.booleans(),
    last=st.one_of(st.none(), st.integers(2, 21)),
)
def test_donsol_bound_is_never_below_the_best_of_any_position(
    state: DonsolState, sick: bool, last: int | None
) -> None:
    # Every position a plain search meets (sick or not, a shield already used or fresh):
    # the strategy's bound is at least the best final score reachable from it.
    state = replace(state, sick=sick, shield_last=last if state.shield else None)
    strategy = plugin("donsol").strategy

    def best(s: DonsolState) -> tuple[int, ...]:
        moves = DONSOL.actions(s)
        value = (
            tuple(DONSOL.score(s)) if not moves else max(best(DONSOL.apply(s, a)) for a in moves)
        )
        assert strategy.bound(s) >= value, (s, strategy.bound(s), value)
        return value

    best(state)


def test_donsol_solver_escapes_a_deadly_room() -> None:
    # 9 HP, no shield: A♠ (17) here kills; after an escape the reshuffle decides.
    state = donsol_endgame(["AS", "2H"], ["3D", "4H", "5D", "6H"], 9, None)
    state = replace(state, first_room=True)
    found = best_from("donsol", state)
    assert found.exact and tuple(found.score) == exhaustive(DONSOL, state)
    assert "escape" in found.actions


# ----- Clear: positions near the end of a full deck ---------------------------------------

monsters = sorted(POWER)
power_cards = sorted(VALUE)


@st.composite
def clear_endgames(draw: st.DrawFn) -> ClearState:
    standing = draw(st.lists(st.sampled_from(monsters), min_size=1, max_size=2, unique=True))
    where = draw(st.lists(st.integers(0, 3), min_size=len(standing), max_size=len(standing),
                          unique=True))
    piles = [(), (), (), ()]
    for pile, monster in zip(where, standing, strict=True):
        piles[pile] = (monster,)
    held = draw(st.integers(1, 3))
    on_reserve = draw(st.integers(0, 2))
    # The power deck deals whole hands; at most six cards in play keep the plain search small.
    room = len(standing) == 1 and held + on_reserve <= 3
    dealt = 3 * draw(st.integers(0, 1 if room else 0))
    cards = draw(st.lists(st.sampled_from(power_cards), min_size=held + on_reserve + dealt,
                          max_size=held + on_reserve + dealt, unique=True))
    hand = tuple(cards[:held]) + (None,) * (3 - held)
    reserve = tuple(cards[held : held + on_reserve])
    graveyard = tuple(m for m in monsters if m not in standing)
    return ClearState(
        variant="standard", seed=5, stream=60, piles=tuple(piles), attack=((),) * 4,
        talon=tuple(cards[held + on_reserve :]), hand=hand, reserve=reserve,
        graveyard=graveyard,
    )


@SMALL
@given(state=clear_endgames())
def test_clear_endgames_match_exhaustive_search(state: ClearState) -> None:
    if not CLEAR.actions(state):
        return
    found = best_from("clear", state)
    assert found.exact
    assert tuple(found.score) == exhaustive(CLEAR, state)
    check_line("clear", state, found)


def clear_late(seed: int) -> ClearState:
    """A late position of a real deal: two or three monsters standing (one maybe struck
    already), the last few hands of its power deck still to come and a few cards on the
    reserve."""
    pick = random.Random(seed)
    start = CLEAR.new(seed)
    cards = [*[c for c in start.hand if c is not None], *start.talon]
    pick.shuffle(cards)
    standing = pick.sample(monsters, pick.randint(2, 3))
    piles: list[tuple[str, ...]] = [(), (), (), ()]
    for monster in standing:
        i = pick.randrange(4)
        piles[i] = (*piles[i], monster)
    attack: list[tuple[str, ...]] = [(), (), (), ()]
    tops = [i for i, pile in enumerate(piles) if pile]
    if pick.random() < 0.5:
        i = pick.choice(tops)
        first = next(c for c in cards if VALUE[c] >= 4)
        cards.remove(first)
        attack[i] = (first,)
    held = pick.randint(1, 3)
    on_reserve = pick.randint(0, 3)
    dealt = 3 * pick.randint(0, 2)
    hand = tuple(cards[:held]) + (None,) * (3 - held)
    reserve = tuple(cards[held : held + on_reserve])
    talon = tuple(cards[held + on_reserve : held + on_reserve + dealt])
    return ClearState(
        variant="standard", seed=seed, stream=60, piles=tuple(piles), attack=tuple(attack),
        talon=talon, hand=hand, reserve=reserve,
        graveyard=tuple(m for m in monsters if m not in standing),
    )


@pytest.mark.parametrize("seed", range(12))
def test_clear_bound_is_never_below_the_best_of_any_late_position(seed: int) -> None:
    # Every position a plain search meets from a late position: the strategy's bound is at
    # least the best final score reachable from it (admissible), and exact when it is over.
    strategy = plugin("clear").strategy
    seen: dict[Any, tuple[int, ...]] = {}
    checked = 0

    def best(s: ClearState) -> tuple[int, ...]:
        nonlocal checked
        key = (s.piles, s.attack, s.talon, tuple(sorted(c for c in s.hand if c)), s.reserve)
        if key in seen:
            return seen[key]
        moves = CLEAR.actions(s)
        value = (
            tuple(CLEAR.score(s)) if not moves else max(best(CLEAR.apply(s, a)) for a in moves)
        )
        assert strategy.bound(s) >= value, (s, strategy.bound(s), value)
        checked += 1
        seen[key] = value
        return value

    best(clear_late(seed))
    assert checked > 1


def clear_best_checking_bound(start: ClearState) -> int:
    """Search every line from ``start``, asserting at each position that the strategy's
    bound is at least the best final score reachable from it; the positions checked."""
    strategy = plugin("clear").strategy
    seen: dict[Any, tuple[int, ...]] = {}

    def best(s: ClearState) -> tuple[int, ...]:
        key = (s.piles, s.attack, s.talon, tuple(sorted(c for c in s.hand if c)), s.reserve)
        if key in seen:
            return seen[key]
        moves = CLEAR.actions(s)
        value = (
            tuple(CLEAR.score(s)) if not moves else max(best(CLEAR.apply(s, a)) for a in moves)
        )
        assert strategy.bound(s) >= value, (s, strategy.bound(s), value)
        seen[key] = value
        return value

    best(start)
    return len(seen)


def clear_stuck_reserve(seed: int) -> ClearState:
    """A late position whose reserve holds, low down, cards that may never leave it: only
    queens and kings stand, and an ace or a two of a suit none of them has lies under a
    card or two that can still be played."""
    pick = random.Random(seed)
    standing = pick.sample([m for m in monsters if m[0] in "QK"], pick.randint(1, 2))
    suits = {m[-1] for m in standing}
    dead = [c for c in power_cards if VALUE[c] <= 2 and c not in ("BJ", "RJ")
            and c[-1] not in suits and not (c[0] == "2" and any(m[0] == "Q" for m in standing))]
    live = [c for c in power_cards if c not in dead and VALUE[c] >= 3]
    pick.shuffle(live)
    piles: list[tuple[str, ...]] = [(), (), (), ()]
    for monster in standing:
        piles[pick.randrange(4)] += (monster,)
    reserve = (pick.choice(dead), *live[: pick.randint(0, 2)])
    rest = live[3:]
    held = pick.randint(1, 3)
    dealt = 3 * pick.randint(0, 1)
    return ClearState(
        variant="standard", seed=seed, stream=60, piles=tuple(piles), attack=((),) * 4,
        talon=tuple(rest[held : held + dealt]), hand=(*rest[:held], *(None,) * (3 - held)),
        reserve=reserve, graveyard=tuple(m for m in monsters if m not in standing),
    )


@pytest.mark.parametrize("seed", range(16))
def test_clear_bound_counts_reserve_cards_that_can_never_leave(seed: int) -> None:
    # Admissible: never below the best reachable score, at every position on the way.
    start = clear_stuck_reserve(seed)
    assert clear_best_checking_bound(start) > 1
    # And tighter than counting every reserve card as playable: a clear keeps the dead card
    # and all under it, so the bound's spare cards are at most the cards left in the hand
    # and the power deck, less the cards still needed beyond the reserve's live ones.
    slain, spare = plugin("clear").strategy.bound(start)
    standing = sum(len(p) for p in start.piles)
    cards = len(start.talon) + sum(c is not None for c in start.hand)
    if slain == 12:
        assert spare <= cards - (3 * standing - (len(start.reserve) - 1))


def test_clear_bound_knows_a_monster_takes_at_most_one_low_card_of_another_suit() -> None:
    # Three low cards of other suits on the reserve under the jack of spades: its first two
    # cards cannot both be worth 5 or less, and its third must be a spade, so only the top
    # one can leave. A clear needs both hand cards; the bound says so.
    start = ClearState(
        variant="standard", seed=5, stream=60, piles=(("JS",), (), (), ()),
        attack=((),) * 4, talon=(), hand=("10S", "9H", None), reserve=("5H", "4D", "3C"),
        graveyard=tuple(m for m in monsters if m != "JS"),
    )
    assert exhaustive(CLEAR, start) == (12, 0)
    assert plugin("clear").strategy.bound(start) == (12, 0)


def clear_low_reserve(seed: int) -> ClearState:
    """A late position with a long reserve of mostly low cards (worth 5 or less) over one
    or two standing monsters, maybe one already struck."""
    pick = random.Random(seed)
    standing = pick.sample(monsters, pick.randint(1, 2))
    piles: list[tuple[str, ...]] = [(), (), (), ()]
    for monster in standing:
        piles[pick.randrange(4)] += (monster,)
    lows = [c for c in power_cards if VALUE[c] <= 5]
    highs = [c for c in power_cards if VALUE[c] > 5]
    pick.shuffle(lows)
    pick.shuffle(highs)
    attack: list[tuple[str, ...]] = [(), (), (), ()]
    if pick.random() < 0.4:
        attack[next(i for i, pile in enumerate(piles) if pile)] = (highs.pop(),)
    reserve = [*lows[: pick.randint(2, 4)], *highs[: pick.randint(0, 1)]]
    pick.shuffle(reserve)
    rest = [*highs[2:], *lows[5:]]
    pick.shuffle(rest)
    held = pick.randint(1, 3)
    return ClearState(
        variant="standard", seed=seed, stream=60, piles=tuple(piles), attack=tuple(attack),
        talon=tuple(rest[held : held + 3 * pick.randint(0, 1)]),
        hand=(*rest[:held], *(None,) * (3 - held)), reserve=tuple(reserve),
        graveyard=tuple(m for m in monsters if m not in standing),
    )


@pytest.mark.parametrize("seed", range(24))
def test_clear_bound_never_underestimates_with_a_long_low_reserve(seed: int) -> None:
    assert clear_best_checking_bound(clear_low_reserve(seed)) > 1


# ----- whole deals: lines replay, budgets are honest ----------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_a_whole_deal_line_replays_to_its_score(key: str) -> None:
    game = GAMES[key]
    for variant in game.variants:
        found = solve(key, 2026, variant, budget_nodes=3000)
        final = replay(key, variant, 2026, found.actions)
        assert game.score(final) == found.score
        assert game.actions(final) == []
        if found.exact:
            assert found.text == game.score_text(final)
        else:
            assert found.text.startswith("at least ")


@pytest.mark.parametrize("key", list(GAMES))
def test_a_search_cut_short_says_it_found_a_lower_bound(key: str) -> None:
    seed = 4  # no game solves this deal in 5 nodes
    found = solve(key, seed, budget_nodes=5)
    assert not found.exact
    assert found.text.startswith("at least ")
    assert found.winnable in (True, None)
    assert GAMES[key].score(replay(key, None, seed, found.actions)) == found.score
    longer = solve(key, seed, budget_nodes=2000)
    assert longer.score >= found.score


def test_a_deadline_is_read_on_the_callers_clock() -> None:
    # The Python search reads the clock every few hundred nodes (the native one between its
    # rounds: tests/rules/test_native_clear.py).
    ticks: Iterator[float] = iter(range(10**9))
    found = solve("clear", 4, deadline=20.0, clock=lambda: float(next(ticks)), native=False)
    assert not found.exact
    assert found.text.startswith("at least ")
    with pytest.raises(ValueError, match="clock"):
        solve("clear", 4, deadline=1.0)


def test_a_finished_game_is_its_own_answer() -> None:
    deck = ["2S", "3S", "4S"]
    state = TOMB.new(1, deck=deck)
    while TOMB.actions(state):
        state = TOMB.apply(state, TOMB.actions(state)[0])
    found = best_from("tomb", state)
    assert found.exact and found.actions == [] and found.score == TOMB.score(state)


def test_the_turning_point_is_the_move_that_gave_the_king_up() -> None:
    # Turn 1: a door (2♣) opened by 5♣. Turn 2: a monster (3♠), K♠, slain by 5♠. The way
    # out after two turns is one retreat turn: a door (4♣) opened by 9♣. This player turns
    # back after turn 1, leaving the King below.
    deck = ["2C", "5C", "3S", "KS", "5S", "4C", "9C"]
    played = ["flip", "retreat"]
    assert TOMB.score(replay("tomb", None, 3, played, deck)) == [0, 0, 1]
    steps = best_along("tomb", None, 3, played, deck)
    assert [s.score for s in steps] == [[1, 10, 1], [1, 10, 1], [0, 0, 1]]
    assert all(s.exact for s in steps)
    assert turning_point(steps) == 1  # the retreat
    assert turning_point(steps[:2]) is None
    assert turning_text("retreat", steps[1], steps[2]) == (
        "After “retreat” the best reachable fell from 1 King, 10 points to 0 Kings, 0 points."
    )


def test_a_turning_point_that_gave_the_win_up_says_so() -> None:
    # Donsol, 3 HP: 2♥ then 4♠ survives (1 HP left at the end); 4♠ first kills.
    state = donsol_endgame(["4S", "2H"], [], 3, None)
    won = best_from("donsol", state)
    lost = best_from("donsol", DONSOL.apply(state, "take 4S"))
    assert won.won and won.exact and not lost.won and lost.exact
    assert turning_point([won, lost]) == 0
    assert turning_text("take 4S", won, lost) == (
        "Here the deal was still winnable; after “take 4S” it was not."
    )


# ----- python -m rules solve ----------------------------------------------------------------


def test_the_solve_command_prints_the_score_the_verdict_and_a_line_that_replays(capsys) -> None:
    from rules.__main__ import main

    assert main(["solve", "tomb", "--seed", "3", "--budget", "30"]) == 0
    out = capsys.readouterr().out.splitlines()
    line = [row.split(". ", 1)[1] for row in out if row.strip()[:1].isdigit()]
    final = replay("tomb", None, 3, line)
    assert out[0] == f"Tomb of Four Kings (standard), seed 3: {TOMB.score_text(final)}"
    assert out[1] == "Winnable: " + ("yes" if final.outcome == "won" else "no")
    assert out[2].startswith("Exact: yes, nothing better exists")
    assert out[3] == f"The line ({len(line)} moves):"


def test_the_solve_command_says_when_its_answer_is_a_lower_bound(capsys) -> None:
    from rules.__main__ import main

    # A deal even the native search does not settle in 21 million nodes: far beyond 0.01 s.
    assert main(["solve", "clear", "--seed", "5893448777124979737", "--budget", "0.01"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert ": at least " in out[0]
    assert out[2].startswith("Exact: no, a lower bound: the 0.01 s budget ran out")


def test_best_along_never_rises_and_every_step_line_replays() -> None:
    game = GAMES["clear"]
    pick = random.Random(3)
    state, played = game.new(77), []
    while game.actions(state):
        action = pick.choice(game.actions(state))
        played.append(action)
        state = game.apply(state, action)
    steps = best_along("clear", None, 77, played, budget_nodes_per_step=200)
    assert len(steps) == len(played) + 1
    scores = [s.score for s in steps]
    assert scores == sorted(scores, reverse=True)
    assert steps[-1].exact and steps[-1].score == game.score(state)
    for i, step in enumerate(steps):
        check_line("clear", replay("clear", None, 77, played[:i]), step)


def test_probing_dives_build_only_the_moves_they_look_at() -> None:
    # A probing dive takes the first move, or with a small chance passes over it: building
    # every child of each state on the way cost a dive step ten times a search node.
    base = plugin("clear").strategy
    built = 0

    class Counting:
        game = base.game
        probe = (50, 0.2, 0.5)  # half the budget: the dives stop before it runs out
        key, bound, bound_text = base.key, base.bound, base.bound_text

        def children(self, state: Any) -> Iterator[tuple[str, Any]]:
            nonlocal built
            for move in base.children(state):
                built += 1
                yield move

    search = Search(CLEAR, Counting(), budget_nodes=2_000)
    search._probe(CLEAR.new(4))
    assert search.nodes > 100
    assert built < 2.5 * search.nodes
