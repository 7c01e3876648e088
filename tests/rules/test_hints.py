"""Hints: legal, explained, and blind to the order of the cards the player cannot see."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import GAMES
from rules.donsol.engine import DonsolState
from rules.hints import Hint, hint, sample_world
from rules.tomb.engine import TOMB

FEW = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = {"budget": 1500, "samples": 3}  # a cheaper hint than the bot's: same code path


def midgame(key: str, seed: int, moves: int) -> Any:
    """A game after about ``moves`` moves of a fixed pseudo-random player, at a choice
    between at least two actions (or at its last move)."""
    game = GAMES[key]
    state = game.new(seed)
    pick = random.Random(seed)
    played = 0
    while True:
        legal = game.actions(state)
        if played >= moves and len(legal) > 1:
            return state
        after = game.apply(state, pick.choice(legal))
        if game.is_over(after):
            return state
        state, played = after, played + 1


def reordered(key: str, state: Any, rng: random.Random) -> Any:
    """The same visible position with the hidden cards in another order (and another seed)."""
    if key == "donsol":
        dungeon = list(state.dungeon)
        rng.shuffle(dungeon)
        return replace(state, dungeon=tuple(dungeon), seed=rng.getrandbits(64))
    if key == "tomb":
        deck = list(state.deck)
        rng.shuffle(deck)
        return replace(state, deck=tuple(deck), seed=rng.getrandbits(64))
    talon = list(state.talon)
    rng.shuffle(talon)
    under = [c for pile in state.piles for c in pile[:-1]]
    rng.shuffle(under)
    piles = []
    for pile in state.piles:
        n = max(0, len(pile) - 1)
        piles.append((*under[:n], *pile[-1:]))
        under = under[n:]
    return replace(state, talon=tuple(talon), piles=tuple(piles), seed=rng.getrandbits(64))


def visible(key: str, state: Any) -> dict[str, Any]:
    view = GAMES[key].view(state)
    view.pop("seed")
    return view


POSITIONS = [("donsol", 31, 5), ("donsol", 8, 12), ("tomb", 12, 3), ("clear", 5, 4),
             ("clear", 9, 10)]


@pytest.mark.parametrize(("key", "seed", "moves"), POSITIONS)
@FEW
@given(order=st.randoms(use_true_random=False))
def test_the_same_visible_position_gets_the_same_hint_whatever_the_hidden_order(
    key: str, seed: int, moves: int, order: random.Random
) -> None:
    state = midgame(key, seed, moves)
    other = reordered(key, state, order)
    assert visible(key, other) == visible(key, state)
    first = hint(key, state, rng=random.Random(99), **QUICK)
    second = hint(key, other, rng=random.Random(99), **QUICK)
    assert first == second


@pytest.mark.parametrize(("key", "seed", "moves"), POSITIONS)
def test_a_hint_is_a_legal_move_with_a_reason(key: str, seed: int, moves: int) -> None:
    state = midgame(key, seed, moves)
    found = hint(key, state, rng=random.Random(1), **QUICK)
    assert isinstance(found, Hint)
    assert found.action in GAMES[key].actions(state)
    assert found.reason and len(found.reason) < 140
    assert 0 <= found.wins <= found.samples == QUICK["samples"]


@pytest.mark.parametrize(("key", "seed", "moves"), POSITIONS)
def test_a_sampled_world_looks_the_same_to_the_player(key: str, seed: int, moves: int) -> None:
    state = midgame(key, seed, moves)
    world = sample_world(key, state, random.Random(3))
    assert visible(key, world) == visible(key, state)
    hidden = {"donsol": "dungeon", "tomb": "deck", "clear": "talon"}[key]
    assert sorted(getattr(world, hidden)) == sorted(getattr(state, hidden))


def test_donsol_hint_escapes_a_room_that_would_kill() -> None:
    state = DonsolState(
        variant="normal", seed=1, stream=0, room=("AS", "KS", "QC", "JC"),
        dungeon=tuple(c for c in GAMES["donsol"].new(1).dungeon
                      if c not in ("AS", "KS", "QC", "JC")),
    )
    found = hint("donsol", state, rng=random.Random(5))
    assert found.action == "escape"
    assert found.reason.startswith("escape: clearing this room would kill you (21 HP left)")


def test_donsol_hint_never_takes_the_monster_that_kills() -> None:
    # 5 HP, no shield, an escape just made: A♠ (17) kills, any other card does not.
    room = ("AS", "5H", "3D", "2D")
    deal = GAMES["donsol"].new(2)
    dungeon = tuple(c for c in (*deal.room, *deal.dungeon) if c not in room)
    state = replace(deal, hp=5, room=room, dungeon=dungeon, first_room=False,
                    escaped_last=True)
    found = hint("donsol", state, rng=random.Random(5))
    assert found.action != "take AS"


def test_tomb_world_keeps_the_ace_under_the_deck() -> None:
    # The Scroll of Light burnt for the 4th Ace (A♣), which the player saw go under the deck.
    state = replace(
        TOMB.new(1, deck=["5S", "6S", "7D", "KH", "AC"]),
        torches=("AS", "AH", "AD", "RJ"),
    )
    for n in range(5):
        world = sample_world("tomb", state, random.Random(n))
        assert world.deck[-1] == "AC"
        assert sorted(world.deck) == sorted(state.deck)


def test_no_hint_for_a_finished_game() -> None:
    state = TOMB.new(1, deck=["2S"])
    while TOMB.actions(state):
        state = TOMB.apply(state, TOMB.actions(state)[0])
    with pytest.raises(ValueError, match="over"):
        hint("tomb", state, rng=random.Random(1))
