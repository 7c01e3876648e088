"""Scoundrel: the worked examples S1–S7 and E1–E11, refusals, random play, the solver."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from rules import IllegalAction
from rules import search as search_module
from rules.cards import CANONICAL
from rules.recap import RESIGNED
from rules.scoundrel import SCOUNDREL, ScoundrelState
from rules.scoundrel.engine import (
    DECK,
    DECK_SIZE,
    MONSTERS_TOTAL,
    ROLE,
    ROOM_SIZE,
    VALUE,
    monster_value_left,
)
from rules.scoundrel.hints import ScoundrelHints
from rules.scoundrel.recap import RECAP, ScoundrelRooms
from rules.scoundrel.solver import ScoundrelStrategy
from rules.search import Search

G = SCOUNDREL


def dealt(first: list[str]) -> ScoundrelState:
    """A game whose deck starts with ``first``, the rest in canonical order."""
    rest = [c for c in DECK if c not in first]
    return G.new(1, deck=[*first, *rest])


def at(room: list[str], dungeon: list[str], **fields: object) -> ScoundrelState:
    """A set-up position: this room and dungeon, other fields as given."""
    return replace(dealt(room), room=tuple(room), dungeon=tuple(dungeon), **fields)


def play(state: ScoundrelState, *actions: str) -> ScoundrelState:
    for action in actions:
        state = G.apply(state, action)
    return state


def refused(state: ScoundrelState, action: str) -> str:
    with pytest.raises(IllegalAction) as caught:
        G.apply(state, action)
    return str(caught.value)


# ----- the deck ----------------------------------------------------------------------------


def test_the_deck_is_44_cards_in_canonical_order() -> None:
    assert len(DECK) == DECK_SIZE == 44
    left_out = set(CANONICAL) - set(DECK)
    assert left_out == {"RJ", "BJ", "JH", "QH", "KH", "AH", "JD", "QD", "KD", "AD"}
    assert list(DECK) == [c for c in CANONICAL if c in DECK]
    assert MONSTERS_TOTAL == 208
    assert [VALUE[c] for c in ("2C", "10S", "JC", "QS", "KC", "AS", "7D", "9H")] == [
        2, 10, 11, 12, 13, 14, 7, 9,
    ]
    assert sum(ROLE[c] == "monster" for c in DECK) == 26


@pytest.mark.parametrize(
    ("seed", "order"),
    [
        (0, "10H 3D 9H 2C 8H 7H 4D 2H 6S AC 6C 6D QC 5S 4S 5C 7D 6H 2D AS 9S 8S 9C 9D 3H 5D 5H "
            "4C 7C 10D 10C 3C 10S 7S KS 8D 2S JS 3S QS 8C 4H KC JC"),
        (2026, "10C 7H 9S 6C 2S 8S 2D 7D 7C KS 9C 3C 5H 3H 4S 4D 10H 8D 5D 6H QC 6S 4H JC JS 5S "
               "QS 3S AS 8H 2H 10D 2C 7S KC 10S 3D 9H 5C 9D 4C AC 6D 8C"),
    ],
)
def test_the_shuffle_matches_the_test_vectors(seed: int, order: str) -> None:
    s = G.new(seed)
    assert " ".join((*s.room, *s.dungeon)) == order
    assert s.stream == 43
    view = G.view(s)
    assert (view["hp"], view["dungeon"], view["score"], view["weapon"]) == (20, 40, [-188], None)


def test_an_explicit_deck_must_hold_the_44_cards() -> None:
    with pytest.raises(ValueError):
        G.new(1, deck=list(DECK[:-1]))
    with pytest.raises(ValueError):
        G.new(1, deck=[*DECK[:-1], "AH"])
    assert G.new(1, deck=list(DECK)).room == ("AS", "2S", "3S", "4S")


# ----- the seeded examples -----------------------------------------------------------------


def test_s1_avoid() -> None:
    s = G.new(14)
    assert s.room == ("4C", "10C", "KS", "KC")
    s = play(s, "avoid")
    v = G.view(s)
    assert v["room"] == ["7H", "2H", "8S", "9D"] and v["dungeon"] == 40
    assert s.dungeon[-4:] == ("4C", "10C", "KS", "KC")
    assert v["avoided_last"] and not v["can_avoid"]
    assert "two rooms in a row" in refused(s, "avoid")
    assert v["score"] == [-188]
    s = play(s, "take 9D", "fight 8S")
    assert s.hp == 20
    s = play(s, "take 7H")
    v = G.view(s)
    assert v["hp"] == 20
    assert v["room"] == ["2H", "6S", "8H", "9C"] and v["dungeon"] == 37
    assert v["can_avoid"] and not v["avoided_last"] and v["score"] == [-180]


def test_s2_a_weapon_refused() -> None:
    s = G.new(2)
    assert s.room == ("5C", "10H", "4C", "7D")
    s = play(s, "take 7D", "fight 4C")
    assert (s.hp, G.view(s)["weapon_last"]) == (20, 4)
    assert G.actions(s) == ["fist 5C", "take 10H"]
    assert refused(s, "fight 5C") == (
        "Your 7D last slew a 4: it can only slay monsters of 4 or less. "
        "Fight the 5C barehanded ('fist 5C')."
    )
    s = play(s, "fist 5C")
    v = G.view(s)
    assert v["hp"] == 15 and v["weapon"] == "7D" and v["slain"] == ["4C"]
    assert v["room"] == ["10H", "2H", "4D", "7C"]


def test_s3_an_equal_monster() -> None:
    s = G.new(5)
    assert s.room == ("5C", "5S", "9D", "7C")
    s = play(s, "take 9D", "fight 7C", "fight 5S")
    v = G.view(s)
    assert (v["hp"], v["weapon_last"]) == (20, 5)
    assert v["room"] == ["5C", "6C", "QC", "3S"]
    legal = G.actions(s)
    assert "fight 5C" in legal and "fight 6C" not in legal and "fight QC" not in legal


def test_s4a_the_second_potion_of_a_room_heals_nothing() -> None:
    s = G.new(6)
    assert s.room == ("4C", "9H", "2H", "4S")
    s = play(s, "fist 4C")
    assert s.hp == 16
    s = play(s, "take 2H")
    assert s.hp == 18 and s.potions_taken == 1
    s = play(s, "take 9H")
    assert s.hp == 18


def test_s4b_a_carried_potion_heals_in_its_new_room() -> None:
    s = play(G.new(6), "fist 4C", "fist 4S", "take 2H")
    v = G.view(s)
    assert v["hp"] == 14 and v["room"] == ["9H", "3S", "JC", "8S"] and v["potions_taken"] == 0
    assert play(s, "take 9H").hp == 20


def test_s5_a_death_score() -> None:
    s = G.new(6)
    moves = []
    while G.actions(s):
        moves.append(G.actions(s)[0])
        s = G.apply(s, moves[-1])
    assert moves == ["fist 4C", "take 9H", "take 2H", "fist 4S", "fist 3S", "fist JC", "fist 8S"]
    v = G.view(s)
    assert (v["hp"], v["outcome"], v["over"], v["won"]) == (-6, "dead", True, False)
    assert v["room"] == ["2D", "KS", "3C"] and v["dungeon"] == 34
    assert v["monster_value_left"] == 178
    assert v["score"] == [-184] and v["score_text"] == "died: -184"


S6 = (
    "take 10D, fight KS, fight JS, fight 9C, fight 4C, take 8D, fight KC, fight JC, take 7H, "
    "take 5H, fight 10C, fight 7C, fight 4S, take 6D, fight AS, fight 2S, take 2D, take 7D, "
    "fight AC, take 8H, take 2H, fight 8C, fight 6C, take 4D, fight 5S, fight 5C, take 3D, "
    "take 9H, fight 6S, take 9D, fight QC, fight 10S, fight 9S, take 3H, fight 8S, fight 7S, "
    "fight 3C, take 5D, take 6H, fight QS, take 4H, fight 3S, fight 2C, take 10H"
).split(", ")

S7 = (
    "take 4D, take 8D, fight KC, fight QS, take 3H, fist 2S, fight QC, fight JS, take 2H, "
    "fight 9S, fight 8S, fight 7C, fight 7S, take 7H, fight 6C, fight 5S, take 5H, fight 4C, "
    "fight 3S, take 3D, take 4H, fight 2C, take 7D, fight KS, fight 8C, fight 6S, take 9D, "
    "fight AC, fight 10C, fight 10S, fight 3C, take 2D, take 5D, fight 9C, fight 5C, take 6D, "
    "take 8H, fight JC, fight 4S, take 10D, fight AS, take 9H"
).split(", ")


def test_s6_a_win_with_the_potion_bonus() -> None:
    assert len(S6) == 44
    s = play(G.new(7924), *S6[:-2])
    v = G.view(s)
    assert v["room"] == ["2C", "10H"] and v["dungeon"] == 0
    assert (v["hp"], v["weapon"], v["weapon_last"]) == (16, "5D", 3)
    assert not v["can_avoid"] and "last room" in refused(s, "avoid")
    s = play(s, "fight 2C")
    assert s.hp == 16 and s.outcome is None
    s = play(s, "take 10H")
    v = G.view(s)
    assert (v["hp"], v["outcome"], v["won"], v["over"]) == (20, "won", True, True)
    assert v["score"] == [30] and v["score_text"] == "won with 20 HP + 10 = 30"
    assert G.actions(s) == []


def test_s7_the_bonus_from_a_wasted_potion() -> None:
    s = play(G.new(8258), *S7)
    v = G.view(s)
    assert v["room"] == ["6H", "10H"] and v["dungeon"] == 0 and v["hp"] == 10
    first = play(s, "take 10H")
    assert first.hp == 20
    first = play(first, "take 6H")
    assert G.score(first) == [26] and first.outcome == "won"
    second = play(s, "take 6H")
    assert second.hp == 16
    second = play(second, "take 10H")
    assert G.score(second) == [16] and G.score_text(second) == "won with 16 HP"


# ----- the explicit decks and set-up positions ---------------------------------------------


def test_e1_weapon_damage_and_a_zero_damage_kill() -> None:
    s = play(dealt(["5D", "JC", "3C"]), "take 5D", "fight JC")
    assert s.hp == 14
    s = play(s, "fight 3C")
    assert s.hp == 14 and G.view(s)["weapon_last"] == 3


def test_e2_the_originals_examples() -> None:
    s = play(dealt(["5D", "QC", "6S"]), "take 5D", "fight QC")
    assert s.hp == 13
    assert play(s, "fight 6S").hp == 12
    s = play(dealt(["5D", "6S", "QC"]), "take 5D", "fight 6S")
    assert "fight QC" not in G.actions(s)
    assert "it can only slay monsters of 6 or less" in refused(s, "fight QC")
    s = play(s, "fist QC")
    v = G.view(s)
    assert v["hp"] == 7 and v["weapon"] == "5D" and v["slain"] == ["6S"]


def test_e3_equal_allowed_then_a_higher_one_barehanded() -> None:
    s = play(dealt(["9D", "7C", "7S", "8C"]), "take 9D", "fight 7C", "fight 7S")
    assert s.room[0] == "8C"
    assert "fight 8C" not in G.actions(s) and "fist 8C" in G.actions(s)
    assert play(s, "fist 8C").hp == 12


def test_e4_a_new_weapon_discards_the_old_one_and_its_monsters() -> None:
    s = play(dealt(["3D", "2C", "8D", "KC"]), "take 3D", "fight 2C", "take 8D")
    v = G.view(s)
    assert v["discarded"] == 2 and v["weapon"] == "8D" and v["weapon_last"] is None
    assert v["slain"] == []
    s = play(s, "fight KC")
    assert s.hp == 15 and G.view(s)["weapon_last"] == 13


def test_e5_potions_per_room() -> None:
    s = play(dealt(["JS", "5H", "4H"]), "fist JS", "take 5H")
    assert s.hp == 14
    assert play(s, "take 4H").hp == 14
    s = play(dealt(["9C", "4H", "3D", "5H"]), "fist 9C", "take 4H")
    assert s.hp == 15
    s = play(s, "take 3D")
    assert s.room == ("5H", "AS", "2S", "3S")
    assert play(s, "take 5H").hp == 20


def test_e6_a_potion_at_full_health_uses_the_rooms_potion() -> None:
    s = play(dealt(["2H", "8C", "9H"]), "take 2H")
    assert s.hp == 20 and G.view(s)["potions_taken"] == 1
    s = play(s, "fist 8C")
    assert s.hp == 12
    assert play(s, "take 9H").hp == 12


def test_e7_the_last_room() -> None:
    s = at(["6H", "10H"], [], hp=10)
    assert G.score(play(s, "take 10H", "take 6H")) == [26]
    assert G.score(play(s, "take 6H", "take 10H")) == [16]
    s = at(["9D", "7H"], [], hp=20)
    assert G.score(play(s, "take 9D", "take 7H")) == [27]
    won = play(s, "take 7H", "take 9D")
    assert G.score(won) == [20] and won.outcome == "won"


def test_e8_dying_on_the_last_card() -> None:
    s = play(at(["QS"], [], hp=5), "fist QS")
    assert (s.hp, s.outcome) == (-7, "dead")
    assert G.score(s) == [-7] and G.score_text(s) == "died: -7"


def test_e9_a_death_deals_no_new_room() -> None:
    s = play(dealt(["2D", "QS", "AC", "KC"]), "take 2D", "fight QS")
    assert s.hp == 10
    s = play(s, "fist AC")
    v = G.view(s)
    assert (v["hp"], v["outcome"]) == (-4, "dead")
    assert v["room"] == ["KC"] and v["dungeon"] == 40
    assert v["monster_value_left"] == 182 and v["score"] == [-186]
    assert G.actions(s) == []


def test_e10_avoiding_with_one_card_left_in_the_dungeon() -> None:
    s = play(at(["2C", "3C", "4C", "5C"], ["6C"]), "avoid")
    assert s.room == ("6C", "2C", "3C", "4C") and s.dungeon == ("5C",)
    assert s.avoided_last


def test_e11_avoid_refusals_give_their_reason() -> None:
    s = G.new(14)
    assert refused(play(s, "fist 4C"), "avoid") == (
        "You have started this room: face the rest of it."
    )
    assert refused(play(s, "avoid"), "avoid") == (
        "You avoided the last room: you may not avoid two rooms in a row."
    )
    last = at(["6H", "10H"], [], hp=10)
    assert "last room" in refused(last, "avoid")
    assert G.view(last)["avoid_reason"] == refused(last, "avoid")


# ----- more rules --------------------------------------------------------------------------


def test_avoiding_twice_in_a_row_is_refused_and_the_room_after_may_be_avoided() -> None:
    s = play(G.new(14), "avoid")
    assert "avoid" not in G.actions(s)
    s = play(s, *G.actions(s)[:1])
    s = play(s, *[a for a in G.actions(s) if a != "avoid"][:2])
    while s.taken:
        s = play(s, next(a for a in G.actions(s) if a != "avoid"))
    assert s.outcome is None and len(s.room) == 4 and not s.avoided_last
    assert "avoid" in G.actions(s)


def test_fist_is_always_offered_and_fight_needs_a_weapon() -> None:
    s = dealt(["5C", "7D", "9H", "2S"])
    assert G.actions(s) == ["fist 5C", "take 7D", "take 9H", "fist 2S", "avoid"]
    assert refused(s, "fight 5C") == "You have no weapon: fight the 5C barehanded ('fist 5C')."
    s = play(s, "take 7D")
    assert G.actions(s) == ["fight 5C", "fist 5C", "take 9H", "fight 2S", "fist 2S"]


def test_refusals_speak_a_players_words() -> None:
    s = dealt(["5C", "7D", "9H", "2S"])
    assert refused(s, "take 5C") == "5C is a monster: 'fist 5C' barehanded."
    assert refused(s, "fist 7D") == "7D is a weapon, not a monster: 'take 7D' to equip it."
    assert refused(s, "fight 9H") == "9H is a potion, not a monster: 'take 9H' to drink it."
    assert refused(s, "take KC") == "K♣ is not in this room."
    assert refused(s, "take ZZ") == "'ZZ' is not in this room."
    assert "not a Scoundrel move" in refused(s, "escape")
    assert "not a Scoundrel move" in refused(s, "")
    armed = play(s, "take 7D")
    assert "'fight 5C' with your weapon" in refused(armed, "take 5C")
    dead = play(at(["QS"], [], hp=5), "fist QS")
    assert refused(dead, "fist QS") == "The game is over."
    assert G.view(dead)["avoid_reason"] == "The game is over."


def test_negative_scores_sort_as_numbers() -> None:
    assert G.score(G.new(3)) == [-188]
    worse = play(at(["QS"], [], hp=5), "fist QS")
    better = play(at(["2S"], [], hp=1), "fist 2S")
    assert G.score(worse) > [-40] > [-188]
    assert G.score(better) == [-1] > G.score(worse)


def test_labels_say_what_a_move_does() -> None:
    s = play(dealt(["5C", "7D", "9H", "2S"]), "fist 2S")
    v = G.view(s)
    assert G.label(v, "take 9H") == "Drink 9♥ (+2 HP)"
    assert G.label(v, "take 7D") == "Equip 7♦ (7)"
    assert G.label(v, "fist 5C") == "Fist 5♣ (−5 HP)"
    s = play(s, "take 7D")
    assert G.label(G.view(s), "fight 5C") == "Fight 5♣ (−0 HP)"
    assert G.label(G.view(G.new(1)), "avoid") == "Avoid the room"


# ----- random play -------------------------------------------------------------------------


def random_games(count: int, seed: int = 7) -> list[tuple[int, list[str]]]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        deal = rng.getrandbits(64)
        s = G.new(deal)
        moves: list[str] = []
        while legal := G.actions(s):
            moves.append(rng.choice(legal))
            s = G.apply(s, moves[-1])
        games.append((deal, moves))
    return games


def test_random_play_keeps_every_promise() -> None:
    for deal, moves in random_games(60):
        s = G.new(deal)
        score = G.score(s)
        for action in moves:
            legal = G.actions(s)
            assert len(legal) <= 20 and len(set(legal)) == len(legal)
            assert all(a.isascii() and len(a) <= 9 for a in legal)
            dumped = G.dump(s)
            assert G.load(json.loads(json.dumps(dumped))) == s
            frozen = G.dump(s)
            after = G.apply(s, action)
            assert G.dump(s) == frozen  # apply never mutates
            s = after
            v = G.view(s)
            json.dumps(v)
            cards = len(v["room"]) + v["dungeon"] + (v["weapon"] is not None)
            assert cards + len(v["slain"]) + v["discarded"] == DECK_SIZE
            assert 0 <= v["taken"] <= 3
            assert v["monster_value_left"] == monster_value_left(s)
            assert G.score(s) >= score  # the score never goes down
            score = G.score(s)
            assert v["can_avoid"] == ("avoid" in G.actions(s))
        assert s.outcome in ("won", "dead")
        assert G.load(G.dump(s)) == s
        if s.outcome == "won":
            assert 1 <= G.score(s)[0] <= 30
        else:
            assert -188 <= G.score(s)[0] <= 0


def test_play_is_deterministic() -> None:
    for deal, moves in random_games(10, seed=11):
        a = play(G.new(deal), *moves)
        b = play(G.new(deal), *moves)
        assert G.dump(a) == G.dump(b) and G.view(a) == G.view(b)


def test_a_dump_of_another_engine_is_refused() -> None:
    data = G.dump(G.new(1))
    data["engine"] = "donsol/1"
    with pytest.raises(ValueError):
        G.load(data)


# ----- the solver --------------------------------------------------------------------------


def brute_force(s: ScoundrelState, memo: dict | None = None) -> tuple[int, ...]:
    """The best final score from ``s``, by trying every line."""
    memo = {} if memo is None else memo
    if s.outcome is not None:
        return tuple(G.score(s))
    key = replace(s, events=(), moves=0)
    if key not in memo:
        memo[key] = max(brute_force(G.apply(s, a), memo) for a in G.actions(s))
    return memo[key]


def small_positions(count: int, seed: int) -> list[ScoundrelState]:
    """Late-game positions: 5 to 8 random cards, a random HP, weapon and room state."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = rng.sample(DECK, rng.randint(5, 8))
        weapons = [c for c in DECK if ROLE[c] == "weapon" and c not in cards]
        monsters = [c for c in DECK if ROLE[c] == "monster" and c not in cards]
        weapon = rng.choice([None, *weapons])
        slain = (rng.choice(monsters),) if weapon and rng.random() < 0.5 else ()
        out.append(
            at(
                cards[:4], cards[4:], hp=rng.randint(1, 20), weapon=weapon, slain=slain,
                avoided_last=rng.random() < 0.3, potions_taken=int(rng.random() < 0.3),
            )
        )
    return out


def mid_room_positions(count: int, seed: int) -> list[ScoundrelState]:
    """Late positions anywhere in a room: 0 to 2 of its cards taken (a potion among them,
    maybe), a weapon with up to two kills in the weapon rule's order, 1 to 5 cards to deal."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        taken = rng.randint(0, 2)
        cards = rng.sample(DECK, ROOM_SIZE - taken + rng.randint(1, 5))
        weapons = [c for c in DECK if ROLE[c] == "weapon" and c not in cards]
        monsters = [c for c in DECK if ROLE[c] == "monster" and c not in cards]
        weapon = rng.choice([None, *weapons])
        kills = rng.randint(0, 2) if weapon else 0
        slain = tuple(sorted(rng.sample(monsters, kills), key=VALUE.get, reverse=True))
        out.append(
            at(
                cards[: ROOM_SIZE - taken], cards[ROOM_SIZE - taken :],
                hp=rng.randint(1, 20), weapon=weapon, slain=slain, taken=taken,
                avoided_last=rng.random() < 0.3,
                potions_taken=int(taken > 0 and rng.random() < 0.5),
            )
        )
    return out


@pytest.mark.parametrize("seed", range(3))
def test_the_bound_is_admissible_anywhere_in_a_room(seed: int) -> None:
    # Were the bound ever below the best line, the search would prune that line away.
    strategy = ScoundrelStrategy()
    memo: dict = {}
    for s in mid_room_positions(60, 1000 + seed):
        assert strategy.bound(s) >= brute_force(s, memo)
        for _, child in strategy.children(s):
            assert strategy.bound(child) >= brute_force(child, memo)


def test_the_solver_matches_exhaustive_search_anywhere_in_a_room() -> None:
    # The key and the strength (dominance) are wrong if a table entry ever cuts a line that
    # did better: the search would then answer below the exhaustive best.
    strategy = ScoundrelStrategy()
    memo: dict = {}
    for s in mid_room_positions(60, 7):
        found = Search(G, strategy, budget_nodes=200_000).run(s)
        assert found.exact and found.score == brute_force(s, memo)


@pytest.mark.parametrize("seed", range(4))
def test_the_solver_matches_exhaustive_search(seed: int) -> None:
    strategy = ScoundrelStrategy()
    for s in small_positions(15, seed):
        found = Search(G, strategy, budget_nodes=200_000).run(s)
        assert found.exact
        assert found.score == brute_force(s)
        assert strategy.bound(s) >= found.score
        assert tuple(G.score(play(s, *found.actions))) == found.score


def test_the_bound_never_falls_below_the_best_line() -> None:
    strategy = ScoundrelStrategy()
    for s in small_positions(40, 99):
        best = brute_force(s)
        assert strategy.bound(s) >= best
        for _, child in strategy.children(s):
            assert strategy.bound(child) >= brute_force(child)


def test_a_whole_deal_is_solved_to_a_win_with_the_bonus() -> None:
    found = Search(G, ScoundrelStrategy(), budget_nodes=400_000).run(G.new(5893448777124979737))
    assert found.exact and found.score == (30,)
    end = play(G.new(5893448777124979737), *found.actions)
    assert end.outcome == "won" and G.score(end) == [30]


def test_the_search_remembers_negative_bounds_exactly() -> None:
    # Either monster first kills; the potion first heals only 8 (at most 20 HP), then the
    # king leaves 7 and the queen kills at -5. The bound heals the whole 10 and says -3; the
    # table must still learn -5, not the "nothing found" mark, which once was (-1,) and hid
    # every score below it.
    s = at(["KS", "QS", "10H"], [], hp=12)
    strategy = ScoundrelStrategy()
    assert strategy.bound(s) == (-3,)
    search = Search(G, strategy, budget_nodes=10_000)
    found = search.run(s)
    assert found.exact and found.score == (-5,) == brute_force(s)
    assert search.table[strategy.key(s)] == [(strategy.strength(s), (-5,))]
    assert search_module._NOTHING < (-188,)


def test_the_bound_keeps_the_weapon_rule_for_the_weapon_in_hand() -> None:
    # The 10 last slew a 2: the king and queen meet it no more, and no weapon is left.
    s = at(["KS", "QS"], [], hp=5, weapon="10D", slain=("2C",))
    assert ScoundrelStrategy().bound(s) == (-20,) == brute_force(s)


def test_the_solver_reads_its_bound_as_words() -> None:
    strategy = ScoundrelStrategy()
    assert strategy.bound_text((17,)) == "at least a win with 17 points"
    assert strategy.bound_text((-40,)) == "at least -40"


# ----- hints ---------------------------------------------------------------------------


def test_a_world_shuffles_only_what_the_player_has_not_seen() -> None:
    hints = ScoundrelHints()
    s = play(G.new(14), "avoid")
    assert s.known_under == 4
    world = hints.sample_world(s, random.Random(3))
    assert world.room == s.room and world.dungeon[-4:] == ("4C", "10C", "KS", "KC")
    assert sorted(world.dungeon) == sorted(s.dungeon) and world.dungeon != s.dungeon
    # The hidden order is never read: two deals alike but for it give the same world.
    other = replace(s, dungeon=(*reversed(s.dungeon[:-4]), *s.dungeon[-4:]))
    assert hints.sample_world(other, random.Random(3)) == world


def test_the_seen_bottom_shrinks_as_the_dungeon_is_dealt() -> None:
    s = play(at(["2C", "3C", "4C", "5C"], ["6C", "7C"]), "avoid")
    assert s.dungeon == ("4C", "5C") and s.known_under == 2
    s = play(s, "fist 6C", "fist 7C", "fist 2C")
    assert s.dungeon == () and s.known_under == 0


def test_the_utility_sorts_like_the_score() -> None:
    hints = ScoundrelHints()
    scores = [[-188], [-40], [-3], [0], [1], [17], [30]]
    assert sorted(scores, key=hints.utility) == scores


def test_reasons_are_true_of_the_move() -> None:
    hints = ScoundrelHints()
    s = dealt(["5C", "7D", "9H", "2S"])
    assert hints.reason(s, "take 7D", s) == "equip 7♦: a weapon for the monsters ahead"
    assert hints.reason(s, "fist 5C", s) == "fist 5♣: 5 damage, with no weapon to take it on"
    assert "nothing to heal at 20 HP" in hints.reason(s, "take 9H", s)
    assert hints.reason(s, "avoid", s) == (
        "avoid: its cards wait under the dungeon for a better moment"
    )
    costly = dealt(["5C", "KC", "QS", "2S"])
    assert hints.reason(costly, "avoid", costly) == (
        "avoid: facing this room costs at least 19 HP"
    )
    weak = replace(costly, hp=10)
    assert hints.reason(weak, "avoid", weak) == (
        "avoid: facing this room would kill you (10 HP left)"
    )
    armed = play(s, "take 7D", "fight 2S")
    assert hints.reason(armed, "fist 5C", armed) == "fist 5♣: your 7♦ cannot slay it (5 > 2)"
    s = play(dealt(["KC", "3D", "8H", "QS"]), "take 3D")
    assert hints.reason(s, "fight KC", s) == "fight K♣ with 3♦: 10 damage instead of 13"
    dying = at(["QS"], [], hp=5)
    assert hints.reason(dying, "fist QS", dying).endswith(", and you fall")
    last = at(["6H", "10H"], [], hp=10, potions_taken=1, taken=1)
    assert hints.reason(last, "take 6H", last).startswith("drink 6♥: it heals nothing")


# ----- the result line's rooms -----------------------------------------------------------


def tally(deal: int, moves: list[str]) -> list[str]:
    rooms = ScoundrelRooms()
    s = G.new(deal)
    before = G.view(s)
    for action in moves:
        s = G.apply(s, action)
        after = G.view(s)
        rooms.step(before, action, after)
        before = after
    return rooms.finish()


def test_the_rooms_of_the_worked_examples() -> None:
    assert tally(14, ["avoid", "take 9D", "fight 8S", "take 7H"]) == ["🟦", "🟩"]
    assert tally(6, ["fist 4C", "take 9H", "take 2H", "fist 4S", "fist 3S", "fist JC",
                     "fist 8S"]) == ["🟨", "🟧", "🟥"]  # 4 + 3 of 20: heavy
    assert tally(7924, S6)[-1] == "🟩" and len(tally(7924, S6)) == 15
    assert tally(2, ["take 7D"]) == [RESIGNED]
    assert tally(2, []) == []


def test_random_runs_give_one_symbol_per_room_and_name_no_card() -> None:
    symbols = {symbol for symbol, _ in RECAP.legend}
    rng = random.Random(5)
    for deal, moves in random_games(80, seed=13):
        cut = rng.randint(0, len(moves))
        row = tally(deal, moves[:cut])
        s = play(G.new(deal), *moves[:cut])
        rooms = sum(1 for a in moves[:cut] if a == "avoid")
        replayed = G.new(deal)
        for action in moves[:cut]:
            nxt = G.apply(replayed, action)
            rooms += action != "avoid" and len(nxt.dungeon) < len(replayed.dungeon)
            replayed = nxt
        rooms += s.outcome is not None or (cut > 0 and s.taken > 0)
        assert len(row) == rooms
        assert set(row) <= symbols
        assert (row[-1:] == [RESIGNED]) == (s.outcome is None and s.taken > 0)
        for code in DECK:
            assert code not in "".join(row)


# ----- the rules text ----------------------------------------------------------------------


def test_the_rules_text_fits_an_embed_and_opens_the_docs_page() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    text = (root / "rules" / "scoundrel" / "rules.md").read_text(encoding="utf-8")
    page = (root / "docs" / "games" / "scoundrel.md").read_text(encoding="utf-8")
    assert len(text) < 4096 and text.startswith(f"# {G.title}\n")
    assert all(f"**{variant}**" in text for variant in G.variants)
    assert page.startswith(text + "\n<!-- end of the rules text")


def test_the_view_holds_every_key_of_the_contract_and_the_game() -> None:
    view = G.view(G.new(0))
    keys = {
        "game", "variant", "seed", "moves", "over", "won", "outcome", "score", "score_text",
        "prompt", "events", "hp", "weapon", "weapon_last", "slain", "room", "dungeon",
        "discarded", "taken", "potions_taken", "avoided_last", "can_avoid", "avoid_reason",
        "last_card", "monster_value_left",
    }
    assert keys <= set(view)
    assert (view["game"], view["variant"], view["score_text"]) == (
        "scoundrel", "standard", "20 HP, 208 in monsters left",
    )
    assert G.outcomes == {"won": "win", "dead": "loss"}
    assert "Scoundrel" in G.text(G.new(0)) and "10♥" in G.text(G.new(0))


def test_a_fresh_deal_holds_the_class_defaults() -> None:
    # The deal builds its state positionally (rules.engine.state_builder), every default
    # spelt out: they must be the class's own.
    state = G.new(2026)
    assert state == ScoundrelState(
        "standard", 2026, state.stream, state.dungeon, state.room, events=state.events
    )
    assert state.stream == DECK_SIZE - 1 and len(state.room) == ROOM_SIZE
