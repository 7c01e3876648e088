"""The day's look back: absent until the day closes, then the score against par (exact or a
bound), the percentile among the day's ranked players (ties beat nobody they tie with), the
day's best and the kept turning point; and the stats card's figures."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from core import Core, Run
from core.daily import closes_at
from core.lookback import CARD_WEEKS, NoLookBack, better_than, of_par
from rules import GAMES
from store.base import ParRow
from tests.core.conftest import START, Clock
from tests.core.test_act import play_out

DAY = START.date().isoformat()  # Donsol #1
PLAYERS = (1001, 2002, 3003, 4004, 5005, 6006)
#: Players 1001 and 2002 play the same line of the same deal: a tie.
LINES = (1, 1, 2, 3, 4, 5)


async def play_day(core: Core) -> dict[int, Run]:
    runs = {}
    for user, line in zip(PLAYERS, LINES, strict=True):
        started = await core.daily.start(user, "donsol")
        runs[user] = await play_out(core, started.run, random.Random(line))
        assert runs[user].ranked
    return runs


async def put_par(core: Core, score: list[int], *, exact: bool) -> None:
    par = ParRow(game="donsol", variant="normal", day=DAY, rules="donsol/1", score=score,
                 score_text="won with 9 HP" if exact else "at least 50/54 cards", won=exact,
                 exact=exact, actions=[], nodes=1, seconds=0.0, solved_at="2026-12-02")

    def insert(tx, row):
        return tx.insert_par(row)

    assert await core.store.write(insert, par)


async def test_the_look_back_waits_for_the_close(core: Core, clock: Clock) -> None:
    runs = await play_day(core)
    run = runs[PLAYERS[0]]
    assert await core.lookback.of_run(run) is None  # the day is open
    clock.now = closes_at(DAY) - timedelta(seconds=1)
    assert await core.lookback.of_run(run) is None
    assert await core.lookback.yesterday(PLAYERS[0], "donsol", None) is None
    clock.now = closes_at(DAY)
    back = await core.lookback.yesterday(PLAYERS[0], "donsol", None)
    assert back is not None and back.run_id == run.id and back.name == "Donsol #1"


async def test_the_numbers_of_a_made_day(core: Core, clock: Clock) -> None:
    runs = await play_day(core)
    clock.now = closes_at(DAY) + timedelta(hours=3)
    scores = {user: run.score for user, run in runs.items()}
    assert scores[1001] == scores[2002]  # the tie the day was made with
    best = max(scores.values())
    backs = {user: await core.lookback.of_run(run) for user, run in runs.items()}
    for user, back in backs.items():
        assert back is not None
        below = sum(1 for s in scores.values() if s < scores[user])
        assert (back.ranked, back.below, back.others) == (6, below, 5)
        assert back.percentile == 100 * below // 5
        assert back.best is not None and back.best.score == best
        assert back.against_par is None and back.line().startswith("par not solved yet · ")
    # The tie beats nobody it ties with: both see the same percentile.
    assert backs[1001].percentile == backs[2002].percentile
    assert better_than(3, 5) == 60 and better_than(0, 0) is None

    await put_par(core, [54, 9], exact=True)
    back = await core.lookback.of_run(runs[1001])
    assert back is not None and back.par is not None
    xp = scores[1001][0]
    expected = "100% of par" if scores[1001] >= [54, 9] else f"{min(99, 100 * xp // 54)}% of par"
    assert back.against_par == expected
    assert back.line() == " · ".join([expected, back.percentile_text, f"best {back.best_text}"])
    top = max(backs.values(), key=lambda b: b.below)
    assert top.percentile_text == ("better than everyone else" if top.below == 5
                                   else f"better than {top.percentile}%")


async def test_a_bound_par_reads_as_an_upper_bound(core: Core, clock: Clock) -> None:
    runs = await play_day(core)
    clock.now = closes_at(DAY)
    await put_par(core, [1, 1], exact=False)  # a bound far below the day's best
    best = max(run.score for run in runs.values())
    worst = min(runs.values(), key=lambda r: r.score)
    back = await core.lookback.of_run(worst)
    assert back is not None
    # Raised to the day's best, which is a lower bound on par too.
    expected = of_par(GAMES["donsol"], worst.score, best, exact=False)
    assert back.against_par == expected and expected.startswith("at most ")
    top = max(runs.values(), key=lambda r: r.score)
    assert (await core.lookback.of_run(top)).against_par == "at most 100% of par"


def test_how_a_score_reads_against_par() -> None:
    donsol, scoundrel = GAMES["donsol"], GAMES["scoundrel"]
    assert of_par(donsol, [54, 9], [54, 9], exact=True) == "100% of par"
    assert of_par(donsol, [54, 12], [54, 9], exact=True) == "100% of par"
    assert of_par(donsol, [27, 0], [54, 9], exact=True) == "50% of par"
    assert of_par(donsol, [27, 0], [54, 9], exact=False) == "at most 50% of par"
    assert of_par(donsol, [54, 3], [54, 9], exact=True) == "99% of par"  # never 100% below par
    # Negative scores and a par of 0 or less: the gap, in the game's unit.
    assert of_par(scoundrel, [-30], [12], exact=True) == "42 points below par"
    assert of_par(scoundrel, [-30], [-5], exact=True) == "25 points below par"
    assert of_par(scoundrel, [-30], [0], exact=False) == "at least 30 points below par"
    assert of_par(scoundrel, [0], [0], exact=True) == "100% of par"
    assert of_par(scoundrel, [4], [5], exact=True) == "80% of par"
    assert of_par(scoundrel, [-1], [0], exact=True) == "1 point below par"  # not "1 points"


async def test_stats_day_refuses_an_open_or_future_day_or_no_run(
    core: Core, clock: Clock
) -> None:
    await play_day(core)
    with pytest.raises(NoLookBack, match=r"^Donsol #1 is still open: its look back comes when "
                       r"its boards close, at 2026-12-02 01:00 UTC"):
        await core.lookback.runs_of_day(PLAYERS[0], "donsol", DAY, player=None)
    with pytest.raises(NoLookBack, match=r"^Donsol #2 \(2026-12-02\) has not been dealt yet\.$"):
        await core.lookback.runs_of_day(PLAYERS[0], "donsol", "2026-12-02", player=None)
    clock.now = closes_at(DAY)
    with pytest.raises(NoLookBack, match=r"^You have no finished daily of Donsol #1\.$"):
        await core.lookback.runs_of_day(7007, "donsol", DAY, player=None)
    assert [r.owner_id for r in await core.lookback.runs_of_day(
        PLAYERS[0], "donsol", DAY, player=None)] == [PLAYERS[0]]
    assert core.lookback.resolve_day("#1") == core.lookback.resolve_day("1") == DAY
    with pytest.raises(NoLookBack, match="the dailies start at #1"):
        core.lookback.resolve_day("2026-11-30")


async def test_the_stats_card_figures(core: Core, clock: Clock) -> None:
    runs = await play_day(core)
    clock.now = START + timedelta(days=3)  # played day 1, missed days 2 and 3, today day 4
    figures = await core.lookback.card(PLAYERS[2], "donsol")
    assert figures.unit == "cards" and figures.points == [runs[PLAYERS[2]].score[0]]
    assert len(figures.calendar) == CARD_WEEKS * 7
    assert figures.calendar[-4:] == [
        (DAY, "played"), ("2026-12-02", "missed"), ("2026-12-03", "missed"),
        ("2026-12-04", "today"),
    ]
    assert figures.ratings == []
