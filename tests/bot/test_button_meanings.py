"""Buttons that say what they do: one emoji per meaning on every board, the hinted move's
button marked on the board that shows the hint only, and the resign question as the prompt."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from bot import screens
from bot.buttons import HINT_MARK, parse
from core import Run, RunKind, RunStatus
from rules import GAMES
from tests.bot.conftest import World

#: A cheaper hint than the bot's (same code path), so a click settles quickly here.
BUDGET = 3_000


def practice_run(key: str, state, moves: int) -> Run:
    view = GAMES[key].view(state)
    return Run(
        id=7, owner_id=1, guild_id=None, channel_id=None, game=key, variant=view["variant"],
        seed=view["seed"], deck=None, kind=RunKind.PRACTICE, day=None,
        status=RunStatus.PLAYING, outcome=None, score=view["score"], moves=moves,
        version=moves, ranked=False, rules="", hinted=False, created_at="", updated_at="",
        finished_at=None, state=state,
    )


def meaning(custom_id: str, emoji: str | None) -> str:
    """What a button does, in one word: a move's verb, a control's verb; the hint mark means
    "the hint" whether it asks for one or marks the move it suggested."""
    if emoji == HINT_MARK:
        return "hint"
    click = parse(custom_id)
    return click.action.split(" ")[0] if click.kind == "m" else click.verb


def boards(key: str, seeds: int = 10):
    """Every board of a few random practice runs: the plain one, the one showing a hint
    (each legal move hinted in turn) and each second step."""
    game = GAMES[key]
    for seed in range(seeds):
        rng = random.Random(seed)
        state, moves = game.new(seed), 0
        while actions := game.actions(state):
            run = practice_run(key, state, moves)
            yield screens.board(run)
            yield screens.board(run, hinted=rng.choice(actions))
            for spec in screens.board(run).buttons.buttons:
                click = parse(spec.custom_id or "")
                if click.verb == "pick":
                    yield screens.board(run, choice=click.arg)
            state, moves = game.apply(state, rng.choice(actions)), moves + 1


@pytest.mark.parametrize("key", sorted(GAMES))
def test_no_emoji_means_two_things_on_a_board(key: str) -> None:
    seen = 0
    for screen in boards(key):
        meanings: dict[str, set[str]] = defaultdict(set)
        for b in screen.buttons.buttons:
            if isinstance(b.emoji, str):
                meanings[b.emoji].add(meaning(b.custom_id or "", b.emoji))
        doubles = {e: m for e, m in meanings.items() if len(m) > 1}
        assert not doubles, f"{key}: {doubles} on {[b.label for b in screen.buttons.buttons]}"
        seen += 1
    assert seen > 40


def test_tomb_turns_back_and_undoes_with_different_emoji() -> None:
    game = GAMES["tomb"]
    state = game.apply(game.new(3), "flip")
    while "retreat" not in game.actions(state):
        state = game.apply(state, game.actions(state)[0])
    board = screens.board(practice_run("tomb", state, 1))
    emoji = {b.label: b.emoji for b in board.buttons.buttons}
    assert emoji["Undo"] == "↩️" and emoji[game.label(game.view(state), "retreat")] == "🔙"


def marked(message) -> list[str]:
    return [b["label"] for b in World.buttons(message)
            if (b.get("emoji") or {}).get("name") == HINT_MARK and b["label"] != "Hint"]


@pytest.mark.parametrize("game", ["donsol", "clear"])
async def test_the_hinted_moves_button_is_marked_on_that_board_only(world, error_logs, game):
    world.core.hints.budget = BUDGET
    board = await world.play(world.alice, game)
    assert marked(board) == []
    await world.click(world.alice, board, world.control(board, "hint")["custom_id"])
    hinted = world.message(board)
    (run,) = await world.core.runs.unfinished(world.alice.id)
    label = world.description(hinted).removeprefix("*💡 Hint: **").split("**")[0]
    (mark,) = marked(hinted)
    if game == "clear":  # the card's button: the hint names the card and its target
        assert label.startswith(f"{mark} → ")
    else:
        assert mark == label  # the label is unchanged: only its emoji marks it
    (button,) = [b for b in World.buttons(hinted) if b["label"] == mark]
    assert button["custom_id"].split(":")[-2] == str(run.version)  # it plays (or picks) live

    await world.click(world.alice, hinted, world.moves(hinted)[0]["custom_id"])
    assert marked(world.message(board)) == []  # the next board is plain


async def test_the_resign_question_is_the_prompt(world, error_logs):
    board = await world.play(world.alice, "donsol")
    (run,) = await world.core.runs.unfinished(world.alice.id)
    asked = await world.click(world.alice, board, world.control(board, "resign")["custom_id"])
    text = world.description(asked.response)
    assert text.endswith(f"**{screens.CONFIRM_RESIGN}**")
    assert run.view["prompt"] not in text
    assert [b["label"] for b in World.buttons(asked.response)] == [
        "Yes, resign", "No, keep playing"]
