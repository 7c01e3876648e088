"""The Activity and the bot on one core (``bot_site``: the real bot driven by simcord, the web
adapter on ``bot.core``): a daily played in the browser is the daily on the bot's
leaderboard, a run started with buttons resumes in the Activity and the other way round,
another player's token cannot touch a run, a forged or expired token gets 401, and the page
works in French."""

from __future__ import annotations

import random
from typing import Any

import pytest

from language import catalogs
from tests.client.conftest import BotSite, Site
from tests.client.pages import (
    LEGAL,
    first_move,
    moved_on,
    offered,
    play,
    run_id,
    start,
    status,
    touch,
    version,
)
from web.words import WORDS

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def sign_in(site: Site, member: Any, guild: Any, **kwargs: Any) -> Any:
    """The simcord member, signed in on the page: the same Discord id, name and server."""
    site.player(member.id, member.name, guilds=[guild.id], **kwargs)
    return await site.open(member.id, query=f"&mock_guild={guild.id}")


async def play_to_the_end(page: Any) -> None:
    for _ in range(400):
        if await status(page) != "playing":
            return
        await play(page, await first_move(page))
    raise AssertionError("the run did not end within 400 moves")


async def api(page: Any, method: str, path: str, token: str,
              body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """A call from the page's own context (its origin, its fetch), with ``token``."""
    return tuple(await page.evaluate(
        """async ([method, path, token, body]) => {
            const answer = await fetch(path, {method, headers: {
                "Authorization": `Bearer ${token}`, "Content-Type": "application/json"},
                body: body === null ? undefined : JSON.stringify(body)});
            return [answer.status, await answer.json()];
        }""", [method, path, token, body]))


async def test_a_daily_played_in_the_browser_is_on_the_bots_leaderboard(
        bot_site: BotSite) -> None:
    site, world = bot_site.site, bot_site.world
    tab = await sign_in(site, world.alice, world.guild)
    page = tab.page
    # A practice run to its end first, then today's daily, by touching cards.
    practice = await start(page, "donsol")
    await play_to_the_end(page)
    assert (await world.core.runs.get(practice)).over
    daily = await start(page, "donsol", "daily")
    assert daily != practice
    await play_to_the_end(page)
    score = (await page.text_content('[data-testid="status"]')).strip()
    run = await world.core.runs.get(daily)
    assert run.over and run.day == "2026-12-05" and run.guild_id == world.guild.id
    # The bot's leaderboard, read in Discord, has alice's line with the page's result.
    shown = await world.slash(world.alice, "leaderboard", game="donsol")
    board = world.description(shown.response)
    line = next(text for text in board.splitlines() if "alice" in text)
    # The page says "... · died after 10/54 cards"; the bot's line "**alice** — died after
    # 10/54 cards": the same result.
    result = score.rsplit(" · ", 1)[-1]
    assert result and line.endswith(result), (line, score)
    # /daily in Discord brings back the very run the browser played: over, no move left.
    again = await world.slash(world.alice, "daily", game="donsol")
    assert world.moves(again.response) == []
    assert await world.core.daily.played(world.alice.id, "donsol", "normal",
                                         "2026-12-05") == daily
    await tab.close()


async def test_a_daily_started_with_buttons_resumes_in_the_activity_and_back(
        bot_site: BotSite) -> None:
    site, world = bot_site.site, bot_site.world
    rng = random.Random(4)
    first = (await world.slash(world.alice, "daily", game="scoundrel")).response
    clicked = await world.click(world.alice, first, rng.choice(world.moves(first))["custom_id"])
    assert not clicked.ephemeral
    (run,) = await world.core.runs.unfinished(world.alice.id)
    assert run.moves == 1
    # In the Activity: the same run at the same move, offering the engine's moves from there.
    tab = await sign_in(site, world.alice, world.guild)
    page = tab.page
    assert await start(page, "scoundrel", "daily") == run.id
    assert await version(page) == run.version
    assert await offered(page) == set(run.engine.actions(run.state))
    # The button's move is the table's last move: what it did is told, and those of its
    # cards still on the table are ringed.
    (clicked_action,) = await world.core.runs.moves(run.id)
    ringed = {await card.get_attribute("data-card")
              for card in await page.locator("g.card.last").element_handles()}
    assert ringed <= set(clicked_action.split(" ")[1:]), (ringed, clicked_action)
    told = await page.text_content('[data-testid="events"]')
    assert run.view["events"] and all(str(event) in told for event in run.view["events"])
    await play(page, await first_move(page))
    moved = await world.core.runs.get(run.id)
    assert moved.moves == 2
    # Back in Discord: /daily shows the run as the browser left it, and its buttons play on.
    board = (await world.slash(world.alice, "daily", game="scoundrel")).response
    again = await world.click(world.alice, board, world.moves(board)[0]["custom_id"])
    assert not again.ephemeral, again.response.content
    assert (await world.core.runs.get(run.id)).moves == 3
    # The page is now an old tab: its move is refused as stale and the table redrawn.
    before = await version(page)
    await touch(page, page.locator(LEGAL).first)
    await moved_on(page, before)
    assert await page.get_attribute('[data-testid="notice"]', "data-code") == "stale"
    assert await version(page) == (await world.core.runs.get(run.id)).version
    assert (await world.core.runs.get(run.id)).moves == 3
    await tab.close()


async def test_a_daily_started_in_the_activity_resumes_with_buttons(bot_site: BotSite) -> None:
    site, world = bot_site.site, bot_site.world
    tab = await sign_in(site, world.alice, world.guild)
    page = tab.page
    run = await start(page, "tomb", "daily")
    for _ in range(2):
        await play(page, await first_move(page))
    shown = await version(page)
    board = (await world.slash(world.alice, "daily", game="tomb")).response
    assert "Welcome back" in world.description(board)
    stored = await world.core.runs.get(run)
    assert stored.version == shown and stored.moves == 2
    clicked = await world.click(world.alice, board, world.moves(board)[0]["custom_id"])
    assert not clicked.ephemeral, clicked.response.content
    assert (await world.core.runs.get(run)).moves == 3
    await tab.close()


async def test_another_players_token_cannot_touch_the_run(bot_site: BotSite) -> None:
    site, world = bot_site.site, bot_site.world
    alice = await sign_in(site, world.alice, world.guild)
    run = await start(alice.page, "donsol")
    await play(alice.page, await first_move(alice.page))
    shown = await version(alice.page)
    bob = await sign_in(site, world.bob, world.guild)
    # Through the page: bob's lists none of alice's runs.
    assert await bob.page.locator(f'[data-testid="resume-{run}"]').count() == 0
    (token,) = site.tokens(world.bob.id)
    before = site.snapshot()
    action = sorted(await offered(alice.page))[0]
    for method, path, body in (
            ("GET", f"/api/runs/{run}", None),
            ("POST", f"/api/runs/{run}/move", {"version": shown, "action": action}),
            ("POST", f"/api/runs/{run}/undo", {"version": shown}),
            ("POST", f"/api/runs/{run}/hint", {"version": shown}),
            ("POST", f"/api/runs/{run}/resign", {"version": shown})):
        code, answer = await api(bob.page, method, path, token, body)
        assert (code, answer["error"]["code"]) == (403, "not_your_run"), (path, answer)
        assert answer["error"]["message"] and "run" not in answer["error"]
    assert site.snapshot() == before
    # Alice's own table goes on as if nothing happened.
    await play(alice.page, await first_move(alice.page))
    await alice.close()
    await bob.close()


async def test_a_forged_or_expired_token_gets_401_and_changes_nothing(
        bot_site: BotSite) -> None:
    site, world = bot_site.site, bot_site.world
    tab = await sign_in(site, world.alice, world.guild)
    page = tab.page
    run = await start(page, "clear")
    shown = await version(page)
    action = sorted(await offered(page))[0]
    (token,) = site.tokens(world.alice.id)
    before = site.snapshot()
    forged = token[:-4] + ("0000" if not token.endswith("0000") else "1111")
    for bad in (forged, "", "x" * 500, "Bearer"):
        for method, path, body in (("GET", "/api/me", None),
                                   ("POST", f"/api/runs/{run}/move",
                                    {"version": shown, "action": action}),
                                   ("POST", "/api/runs", {"game": "donsol", "kind": "daily"})):
            code, answer = await api(page, method, path, bad, body)
            assert (code, answer["error"]["code"]) == (401, "signed_out"), (bad, path)
    site.expire(world.alice.id)
    code, answer = await api(page, "POST", f"/api/runs/{run}/move", token,
                             {"version": shown, "action": action})
    assert (code, answer["error"]["code"]) == (401, "signed_out")
    assert site.snapshot() == before
    await tab.close()


async def test_the_page_speaks_french_refusals_and_buttons(bot_site: BotSite) -> None:
    site, world = bot_site.site, bot_site.world
    french = catalogs().resolve("fr")
    assert french.code == "fr"
    old = await sign_in(site, world.alice, world.guild, locale="fr")
    page = old.page
    run = await start(page, "donsol")
    for key in ("undo", "hint", "resign"):
        assert (await page.text_content(f'[data-testid="{key}"]')).strip() == french.gettext(
            WORDS[key])
    assert (await page.text_content('[data-testid="start-practice"]')).strip() == (
        french.gettext(WORDS["practice"]))
    # A refusal, in French: a move from an old tab.
    new = await site.open(world.alice.id)
    assert await start(new.page, "donsol") == run
    await play(new.page, await first_move(new.page))
    stale = await version(page)
    async with page.expect_response(lambda r: r.url.endswith("/move")) as answered:
        await touch(page, page.locator(LEGAL).first)
    refusal = await (await answered.value).json()
    await moved_on(page, stale)
    expected = french.gettext("That board was out of date; here is the current one.")
    assert refusal["error"]["message"] == expected
    assert (await page.text_content('[data-testid="notice"]')).strip() == expected
    assert await run_id(page) == run
    await old.close()
    await new.close()
