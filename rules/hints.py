"""Hints: a good move chosen only from what the player can know, with a few words of why.

The player sees the table and can count the cards not yet seen, but not their order. A hint
samples ``samples`` worlds — the same visible position with the unseen cards in a random
order (:func:`sample_world`) — then scores every legal action in each world with the solver
(a small node budget each, so a line found rather than proven) and picks the action with the
best mean score. Ties go to the earlier action in the engine's order.

What is hidden, per game, and how a world replaces it:

- Donsol: the order of the dungeon. A world shuffles its cards and draws a fresh seed for the
  stream (the stream position stays, it only counts the escapes), so a sampled escape
  reshuffles the sampled dungeon and says nothing about the real one.
- Tomb: the order of the deck, except the one card whose place the player knows: once the
  Scroll of Light burnt for the 4th Ace, that Ace lies at the bottom.
- Clear: the order of the power deck, and which face-down monster lies where under each
  pile's top (each pile keeps its count).

Nothing here reads the hidden order: a world is built from the state's visible fields, the
sorted hidden cards and ``rng``. The same visible position and the same ``rng`` state give
the same hint, whatever the hidden order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from rules import find_game
from rules.cards import display
from rules.clear import ATTACK_CARDS, ClearState
from rules.donsol import DONSOL, MAX_HP, DonsolState, role
from rules.solver import Table, best_from
from rules.tomb import DEADLY_DAMAGE, KIND_NAMES, NUMBER, TREASURE_VALUE, TombState

#: Nodes for one hint, shared by every (world, action) pair: about a second on one core.
DEFAULT_BUDGET = 12_000
DEFAULT_SAMPLES = 8
_MIN_NODES = 50  # per (world, action): below this a search is little more than its first dive


@dataclass(frozen=True)
class Hint:
    """A suggested action, one short reason, and how it fared in the sampled worlds."""

    action: str
    reason: str
    wins: int  # sampled worlds in which this action's best line wins
    samples: int


def hint(
    game_key: str,
    state: Any,
    *,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    samples: int = DEFAULT_SAMPLES,
) -> Hint:
    """A good action for ``state`` and why, from what its player can know.

    ``budget`` is the total number of search nodes (the time it takes grows with it).
    Raises ``ValueError`` for a finished game.
    """
    game = find_game(game_key)
    legal = game.actions(state)
    if not legal:
        raise ValueError("the game is over: there is nothing left to hint")
    worlds = [sample_world(game_key, state, rng) for _ in range(max(1, samples))]
    if len(legal) == 1:
        return Hint(legal[0], "the only move", 0, len(worlds))
    per_search = max(_MIN_NODES, budget // (len(worlds) * len(legal)))
    totals = [0.0] * len(legal)
    wins = [0] * len(legal)
    for world in worlds:
        table: Table = {}
        for i, action in enumerate(legal):
            found = best_from(
                game_key, game.apply(world, action), budget_nodes=per_search, table=table
            )
            totals[i] += _UTILITY[game_key](found.score)
            wins[i] += found.won
    best = max(range(len(legal)), key=lambda i: (totals[i], -i))
    action = legal[best]
    reason = _REASONS[game_key](state, action, worlds[0])
    if wins[best]:
        reason += f" (wins in {wins[best]} of {len(worlds)} sampled deals)"
    return Hint(action, reason, wins[best], len(worlds))


def sample_world(game_key: str, state: Any, rng: random.Random) -> Any:
    """``state`` with its hidden cards in a random order drawn from ``rng`` (see the module
    docstring for what is hidden in each game)."""
    if game_key == "donsol":
        return _donsol_world(state, rng)
    if game_key == "tomb":
        return _tomb_world(state, rng)
    if game_key == "clear":
        return _clear_world(state, rng)
    raise ValueError(f"no hints for {game_key!r}")


# ----- worlds -------------------------------------------------------------------------------


def _donsol_world(s: DonsolState, rng: random.Random) -> DonsolState:
    dungeon = sorted(s.dungeon)
    rng.shuffle(dungeon)
    return replace(s, dungeon=tuple(dungeon), seed=rng.getrandbits(64))


def _tomb_world(s: TombState, rng: random.Random) -> TombState:
    deck = sorted(s.deck)
    bottom: list[str] = []
    if "RJ" in s.torches and s.outcome is None:
        # The Scroll burnt for the 4th Ace, which went under the deck: the one Ace not burnt.
        under = [a for a in ("AS", "AH", "AD", "AC") if a not in s.torches and a in deck]
        if len(under) == 1:
            deck.remove(under[0])
            bottom = under
    rng.shuffle(deck)
    return replace(s, deck=(*deck, *bottom), seed=rng.getrandbits(64))


def _clear_world(s: ClearState, rng: random.Random) -> ClearState:
    talon = sorted(s.talon)
    rng.shuffle(talon)
    hidden = sorted(c for pile in s.piles for c in pile[:-1])
    rng.shuffle(hidden)
    piles = []
    for pile in s.piles:
        under = len(pile) - 1 if pile else 0
        piles.append((*hidden[:under], *pile[-1:]))
        hidden = hidden[under:]
    return replace(s, talon=tuple(talon), piles=tuple(piles), seed=rng.getrandbits(64))


# ----- how a score counts when averaging over worlds ---------------------------------------

# Each maps a score list to one number that sorts like the list (lexicographically).
_UTILITY = {
    "donsol": lambda score: score[0] * (MAX_HP + 1) + score[1],
    "tomb": lambda score: score[0] * 10_000 + score[1] * 10 + score[2],
    "clear": lambda score: score[0] * 100 + score[1],
}


# ----- reasons ------------------------------------------------------------------------------


def _donsol_reason(s: DonsolState, action: str, world: DonsolState) -> str:
    if action == "escape":
        cost, breaks = _room_cost(world)
        if cost >= s.hp:
            why = f"clearing this room would kill you ({s.hp} HP left)"
        else:
            why = f"clearing this room costs at least {cost} HP"
            if breaks:
                why += " and the shield would break"
        return f"escape: {why}"
    card = action.split(" ")[1]
    after = DONSOL.apply(world, action)
    kind = role(card)
    if kind == "potion":
        if s.sick:
            return f"drink {display(card)}: it heals nothing while you are sick, but costs nothing"
        healed = after.hp - s.hp
        if healed:
            return f"drink {display(card)}: heals {healed} HP"
        return f"drink {display(card)}: it heals nothing at full health, but costs nothing"
    if kind == "shield":
        if s.shield is None:
            return f"take up {display(card)}: a shield for the monsters ahead"
        return f"take up {display(card)}: it blocks more than your worn {display(s.shield)}"
    lost = s.hp - after.hp
    if lost == 0:
        return f"fight {display(card)}: your shield absorbs it"
    if after.shield is None and s.shield is not None:
        return f"fight {display(card)}: {lost} damage and the shield breaks, the least bad here"
    return f"fight {display(card)} now: {lost} damage while you can afford it"


def _room_cost(world: DonsolState) -> tuple[int, bool]:
    """The least HP clearing the room costs (every order tried; only the room's visible
    cards decide it), and whether every cheapest order breaks the shield."""

    best: tuple[int, bool] | None = None
    frontier = [world]
    start_hp = world.hp
    while frontier:
        state = frontier.pop()
        takes = [a for a in DONSOL.actions(state) if a != "escape"]
        for action in takes:
            child = DONSOL.apply(state, action)
            if child.outcome is not None or len(child.room) >= len(state.room):
                # The room is done (cleared, or the run ended on it).
                lost = start_hp - child.hp
                broke = world.shield is not None and child.shield is None
                option = (lost, broke)
                if best is None or option < best:
                    best = option
            else:
                frontier.append(child)
    return best if best is not None else (0, False)


def _tomb_reason(s: TombState, action: str, world: TombState) -> str:
    hp = DEADLY_DAMAGE - s.damage
    verb, _, arg = action.partition(" ")
    kings_in_hand = sum(1 for c in s.hand if c[0] == "K")
    if verb == "retreat":
        out = s.delve_turns - 1
        if out == 0:
            return f"turn back: the way out is right there, with {hp} HP left"
        return (
            f"turn back: {out} turn{'s' if out != 1 else ''} to the way out with {hp} HP left "
            f"and {kings_in_hand} King{'s' if kings_in_hand != 1 else ''} in hand"
        )
    if verb == "flip" and s.encounter is None:
        if s.phase == "retreat" or s.delve_turns == 0:
            return "turn the next card: the only way on"
        seen = (*s.hand, *s.turn, *s.stacks, *s.discards)
        left = 4 - sum(1 for c in seen if c[0] == "K")  # the Kings not seen yet
        if not left:
            return f"delve deeper: {hp} HP left and treasure still below"
        return f"delve deeper: {hp} HP left and {left} King{'s' if left != 1 else ''} still below"
    if verb == "flip":
        strength = NUMBER[s.encounter] if s.encounter else 0
        kind = KIND_NAMES[s.encounter[-1]] if s.encounter else "encounter"
        return f"turn a card against the {kind} ({strength}): keep your skills for worse"
    if verb == "skill":
        kind = KIND_NAMES[s.encounter[-1]] if s.encounter else "door"
        return f"play {display(arg)}: the {kind} is overcome with no risk"
    if verb == "drop":
        return (
            f"drop {display(arg)} (worth {TREASURE_VALUE[arg]}): buys off the monster "
            "before it can hurt you"
        )
    if verb == "dodge":
        return f"dodge: a blow of {s.owed} would leave {max(0, hp - s.owed)} HP"
    if verb == "endure":
        return f"endure the blow of {s.owed}: keep J♥ for a worse one"
    if verb == "discard":
        return f"discard {s.owed}: keep J♣ for a worse door"
    cheapest = TREASURE_VALUE.get(arg, 0)
    return f"leave {display(arg)}: the least you can give up (worth {cheapest})"


def _clear_reason(s: ClearState, action: str, world: ClearState) -> str:
    words = action.split(" ")
    card = words[1]
    if words[0] == "reserve":
        return f"reserve {display(card)}: it is worth more later than anywhere now"
    i = int(words[2]) - 1
    monster = s.piles[i][-1]
    played = len(s.attack[i])
    source = " from the reserve" if card not in s.hand else ""
    if played == ATTACK_CARDS - 1:
        return f"put {display(card)}{source} on pile {i + 1}: it finishes {display(monster)}"
    if played == 1:
        return (
            f"put {display(card)}{source} on pile {i + 1}: {display(monster)} then needs only "
            "a card of its suit"
        )
    return f"put {display(card)}{source} on pile {i + 1}: it starts on {display(monster)}"


_REASONS = {"donsol": _donsol_reason, "tomb": _tomb_reason, "clear": _clear_reason}
