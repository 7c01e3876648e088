"""The browser table as a player meets it, on the real server (``site``: ``web.app`` over a
core on a SQLite file, the OAuth stand-in as Discord): every game played to its end by
touching cards at phone width with every legal move on screen, the keyboard, a screen
reader's names, a card with several moves, a stale tab, the daily, the boards with /verify
and the replay viewer, rules and stats, signing in refused and expired, hints, and no word on
the page that the server did not send."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from core import Core
from rules import GAMES
from tests.client.conftest import DESKTOP, PHONE, Site
from tests.client.pages import (
    CHOICE,
    LEGAL,
    first_move,
    legal_moves_shown,
    moved_on,
    offered,
    play,
    start,
    status,
    touch,
    version,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

ALICE, BOB = 1001, 1002


async def engine_actions(core: Core, run_id: int) -> set[str]:
    run = await core.runs.get(run_id)
    return set(run.engine.actions(run.state))


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_practice_run_is_played_to_its_end_by_touching_cards(site: Site,
                                                                      game: str) -> None:
    tab = await site.open(ALICE)
    page = tab.page
    run = await start(page, game)
    for _ in range(400):
        if await status(page) != "playing":
            break
        # At 360 px every legal move is on screen, and the table offers exactly the engine's
        # legal moves, each once, by card or button.
        await legal_moves_shown(page)
        assert await offered(page) == await engine_actions(site.core, run)
        await play(page, await first_move(page))
    assert await status(page) == "over"
    stored = await site.core.runs.get(run)
    assert stored.over and stored.moves == len(site.actions(run))
    # The finished table shows the outcome and offers nothing to touch.
    assert await page.locator(LEGAL).count() == 0
    assert await page.text_content('[data-testid="status"]')
    await tab.close()


async def test_every_card_and_move_is_named_for_a_screen_reader(site: Site) -> None:
    tab = await site.open(ALICE)
    page = tab.page
    run_id = await start(page, "scoundrel")
    run = await site.core.runs.get(run_id)
    labels = {a: str(run.engine.label(run.view, a)) for a in run.engine.actions(run.state)}
    for card in await page.locator("g.card").element_handles():
        assert await card.get_attribute("aria-label"), await card.get_attribute("data-testid")
    for card in await page.locator("g.legal").element_handles():
        assert await card.get_attribute("role") == "button"
        assert await card.get_attribute("tabindex") == "0"
        actions = (await card.get_attribute("data-actions")).split("|")
        said = await card.get_attribute("aria-label")
        # The words are the moves' own labels, the same as the bot's buttons.
        assert all(labels[a] in said for a in actions)
    # What a screen reader is given: every button on the page has a name, and every legal
    # move is a button named with its label.
    for button in await page.get_by_role("button").all():
        assert (await button.get_attribute("aria-label") or
                (await button.text_content() or "").strip()), await button.evaluate(
                    "n => n.outerHTML")
    for action, label in labels.items():
        assert await page.get_by_role("button", name=re.compile(re.escape(label))).count(), action
    table = page.locator('[data-testid="table"]')
    assert await table.get_attribute("aria-label") == "The Scoundrel table"
    snapshot = await page.locator("#app").aria_snapshot()
    assert "The Scoundrel table" in snapshot and all(label in snapshot for label in labels.values())
    await play(page, page.locator("g.legal").first)
    await page.wait_for_function("() => document.getElementById('live').textContent.length > 0")
    moved = await site.core.runs.get(run_id)
    assert str(moved.view["events"][0]) in await page.text_content("#live")
    await tab.close()


async def test_the_keyboard_alone_plays_undoes_and_hints(site: Site) -> None:
    tab = await site.open(ALICE)
    page = tab.page
    run = await start(page, "donsol")
    start_version = await version(page)
    # Tab goes through the page's controls to the table's legal cards.
    for _ in range(40):
        await page.keyboard.press("Tab")
        if await page.evaluate("() => document.activeElement?.getAttribute('data-move')") == (
                "card"):
            break
    else:
        raise AssertionError("Tab never reached a legal card")
    focused = await page.evaluate("() => document.activeElement.getAttribute('data-actions')")
    await page.keyboard.press("Enter")
    if await page.locator(CHOICE).count():
        await page.keyboard.press("Enter")
    await moved_on(page, start_version)
    played = site.actions(run)
    assert len(played) == 1 and played[0] in focused.split("|")
    moved = await version(page)
    await page.keyboard.press("u")
    await moved_on(page, moved)
    assert site.actions(run) == []
    await page.keyboard.press("h")
    await page.wait_for_selector('[data-testid="hint-text"]', timeout=15_000)
    assert await page.locator(".hinted").count() >= 1
    assert "Keys:" in await page.text_content('[data-testid="shortcuts"]')
    await tab.close()


async def test_a_card_with_several_moves_asks_which(site: Site) -> None:
    tab = await site.open(ALICE)
    page = tab.page
    run = await start(page, "clear")
    card = page.locator('g.legal[data-actions*="|"]').first
    actions = (await card.get_attribute("data-actions")).split("|")
    await card.click()
    buttons = page.locator(CHOICE)
    shown = sorted([await b.get_attribute("data-action") for b in await buttons.element_handles()])
    assert shown == sorted(actions)
    chosen = actions[-1]
    before = await version(page)
    await page.click(f'.choice [data-action="{chosen}"]')
    await moved_on(page, before)
    assert site.actions(run) == [chosen]
    # The last move's card is highlighted.
    code = chosen.split(" ")[1]
    assert "last" in await page.get_attribute(f'g[data-card="{code}"]', "class")
    await tab.close()


async def test_a_move_from_an_old_tab_is_refused_as_stale_and_the_table_redrawn(
        site: Site) -> None:
    old = await site.open(ALICE)
    run = await start(old.page, "donsol")
    new = await site.open(ALICE)
    assert await start(new.page, "donsol") == run
    await play(new.page, await first_move(new.page))
    before = site.snapshot()
    stale = await version(old.page)
    await touch(old.page, old.page.locator(LEGAL).last)
    await moved_on(old.page, stale)
    notice = old.page.locator('[data-testid="notice"]')
    assert await notice.get_attribute("data-code") == "stale"
    assert "out of date" in await notice.text_content()
    # The old tab now shows the run as it is: the new tab's version and its moves.
    current = await site.core.runs.get(run)
    assert await version(old.page) == current.version == await version(new.page)
    assert await offered(old.page) == await engine_actions(site.core, run)
    assert site.snapshot() == before
    await old.close()
    await new.close()


async def test_the_daily_is_played_once_and_shows_its_commitment(site: Site) -> None:
    tab = await site.open(ALICE)
    page = tab.page
    await page.click('[data-testid="game-tomb"]')
    commitment = await page.text_content('[data-testid="commitment"]')
    variant = GAMES["tomb"].variants[0]
    assert commitment == await site.core.daily.commitment("tomb", variant, "2026-12-05")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    await page.click('[data-testid="start-daily"]')
    await page.wait_for_selector('[data-testid="table"]')
    assert "Daily #5" in await page.text_content('[data-testid="run-title"]')
    await page.click('[data-testid="resign"]')
    await page.click('[data-testid="resign-yes"]')
    await page.wait_for_selector('[data-status="resigned"]')
    before = site.snapshot()
    async with page.expect_response(lambda r: r.url.endswith("/api/runs")) as answered:
        await page.click('[data-testid="start-daily"]')
    refusal = (await answered.value)
    assert refusal.status == 409
    error = (await refusal.json())["error"]
    assert error["code"] == "already_played"
    await page.wait_for_selector('[data-testid="notice"][data-code="already_played"]')
    assert (await page.text_content('[data-testid="notice"]')).strip() == error["message"]
    # The refusal carries the finished run: the table shows it, over.
    assert await status(page) == "resigned"
    assert site.snapshot() == before
    await tab.close()


async def finished_yesterday(site: Site, user_id: int, game: str = "donsol") -> int:
    """A daily of yesterday (#4) played to its end by ``user_id``, through the core."""
    site.clock.advance(days=-1)
    try:
        await site.core.rankings.remember_name(user_id, "bob")
        run = (await site.core.daily.start(user_id, game)).run
        rng = random.Random(3)
        while not run.over:
            run = await site.core.runs.act(run.id, user_id, run.version,
                                           rng.choice(run.engine.actions(run.state)))
        return run.id
    finally:
        site.clock.advance(days=1)


async def test_a_closed_day_verifies_and_replays(site: Site) -> None:
    bobs = await finished_yesterday(site, BOB)
    steps = len(site.actions(bobs))
    tab = await site.open(ALICE)
    page = tab.page
    await page.click('[data-testid="game-donsol"]')
    await page.click('[data-testid="screen-boards"]')
    await page.wait_for_selector('[data-testid="boards"][data-closed="false"]')
    assert await page.get_attribute('[data-testid="verify"]', "disabled") is not None
    await page.click('[data-testid="previous-day"]')
    await page.wait_for_selector('[data-testid="boards"][data-closed="true"]')
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    seed = await site.core.daily.revealed_seed("donsol", "normal", "2026-12-04")
    assert await page.text_content('[data-testid="board-seed"]') == str(seed)
    assert "bob" in await page.text_content('[data-testid="board-lines"]')
    await page.click('[data-testid="verify"]')
    await page.wait_for_selector('[data-testid="verify-result"][data-matches="true"]')
    await page.click(f'[data-testid="replay-{bobs}"]')
    await page.wait_for_selector('[data-testid="replay"][data-step="0"]')
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    await page.keyboard.press("ArrowRight")
    await page.wait_for_selector('[data-testid="replay"][data-step="1"]')
    first = (await site.core.replays.step(bobs, ALICE, 1)).label
    assert (await page.text_content('[data-testid="replay-action"]')).endswith(str(first))
    await page.click('[data-testid="replay-last"]')
    await page.wait_for_selector(f'[data-testid="replay"][data-step="{steps}"]')
    assert await page.get_attribute('[data-testid="replay-forward"]', "disabled") is not None
    turn = await site.core.replays.turn(bobs, ALICE)
    if turn.step is not None:
        await page.click('[data-testid="replay-turning"]')
        await page.wait_for_selector(f'[data-testid="replay"][data-step="{turn.step}"]')
    await page.click('[data-testid="replay-first"]')
    await page.wait_for_selector('[data-testid="replay"][data-step="0"]')
    # The replay is a picture: nothing on it can be touched.
    assert await page.locator(LEGAL).count() == 0
    await tab.close()


async def test_a_day_without_a_daily_is_refused_in_place_with_a_way_back(site: Site) -> None:
    site.clock.advance(days=-4)  # 1 December: daily #1, the first there is
    tab = await site.open(ALICE)
    page = tab.page
    await page.click('[data-testid="screen-boards"]')
    await page.wait_for_selector('[data-testid="boards"]')
    await page.click('[data-testid="previous-day"]')
    await page.wait_for_selector('[data-testid="notice"][data-code="refused"]')
    assert await page.text_content('[data-testid="notice"]') == (
        "There was no daily on 2026-11-30: the dailies start at #1 (2026-12-01).")
    await page.click('[data-testid="boards-today"]')
    await page.wait_for_selector('[data-testid="boards"][data-closed="false"]')
    await tab.close()


async def test_stats_and_rules_are_the_servers(site: Site) -> None:
    tab = await site.open(ALICE)
    page = tab.page
    await page.click('[data-testid="game-clear"]')
    await page.click('[data-testid="screen-rules"]')
    await page.wait_for_selector('[data-testid="rules"] h2')
    assert await page.text_content('[data-testid="rules"] h2') == "Clear the Dungeon"
    await page.click('[data-testid="screen-stats"]')
    await page.wait_for_selector('[data-testid="stats"] dt')
    assert await page.text_content('[data-testid="stats-finished"]') == "0"
    record = await site.core.rankings.record(ALICE, "clear")
    assert await page.locator('[data-testid="stats-recent"] li').count() == len(record.recent)
    await tab.close()


async def test_a_refused_sign_in_code_shows_the_servers_sentence(site: Site) -> None:
    site.player(ALICE)
    before = site.snapshot()
    tab = await site.open(ALICE, code="not-a-code-discord-gave")
    page = tab.page
    assert await page.get_attribute("#app", "data-ready") == "error"
    assert await page.text_content('[data-testid="signin-error"]') == (
        "Discord did not accept that sign-in code: open the table again.")
    assert site.snapshot() == before
    await tab.close()


async def test_an_expired_token_gets_401_changes_nothing_and_signing_in_again_goes_on(
        site: Site) -> None:
    tab = await site.open(ALICE)
    page = tab.page
    run = await start(page, "donsol")
    (code,) = [c for c, user in site.oauth.codes.items() if user == ALICE] or [None]
    site.expire(ALICE)
    before, shown = site.snapshot(), await version(page)
    await touch(page, page.locator(LEGAL).first)
    await page.wait_for_selector('[data-testid="notice"][data-code="signed_out"]')
    assert (await page.text_content('[data-testid="notice"]')).strip()
    assert site.snapshot() == before and await version(page) == shown
    # Discord gives the SDK a fresh code when it authorizes again (the mock repeats its own).
    url = page.url
    site.oauth.codes[url.split("mock_code=")[1]] = ALICE
    await page.click('[data-testid="sign-in-again"]')
    await page.wait_for_selector("#app[data-ready]")
    assert code is None
    assert await start(page, "donsol") == run
    await play(page, await first_move(page))
    assert len(site.actions(run)) == 1
    await tab.close()


async def test_hints_on_a_practice_run_come_from_the_worker_and_show(site: Site) -> None:
    tab = await site.open(ALICE, viewport=DESKTOP)
    page = tab.page
    run = await start(page, "donsol")
    for _ in range(4):
        if await status(page) != "playing":
            break
        # How long a hint takes is bench/hints.py's to measure; here it must come and show.
        async with page.expect_response(lambda r: r.url.endswith("/hint"),
                                        timeout=60_000) as answered:
            await page.click('[data-testid="hint"]')
        response = await answered.value
        assert response.status == 200, await response.text()
        hint = (await response.json())["hint"]
        text = page.locator('[data-testid="hint-text"]')
        await text.wait_for(timeout=10_000)
        assert hint["label"] in await text.text_content()
        # The hinted move is marked on the table: a card ring or a button's.
        assert await page.locator(".hinted").count() >= 1
        await play(page, await first_move(page))
    assert (await site.core.runs.get(run)).hinted
    await tab.close()


def client_keys() -> list[str]:
    """The word keys the client reads (``WORD_KEYS`` in web/client/src/words.ts)."""
    source = (Path(__file__).resolve().parents[2] / "web/client/src/words.ts").read_text()
    block = source[source.index("WORD_KEYS"):source.index("] as const")]
    return re.findall(r'"([a-z_]+)"', block)


async def test_every_word_on_the_page_is_the_servers(site: Site,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from web import api
    from web.words import WORDS

    keys = client_keys()
    assert set(keys) <= set(WORDS), set(keys) - set(WORDS)
    # The server's words all marked (no catalog has them): the page must show no other.
    monkeypatch.setattr(api, "WORDS", {key: f"‹{key}›" for key in WORDS})
    tab = await site.open(ALICE)
    page = tab.page
    run_id = await start(page, "donsol")
    run = await site.core.runs.get(run_id)
    engine = run.engine
    allowed = {g.title for g in GAMES.values()} | {f"player{ALICE}"} | {
        str(engine.variant_name(v)) for v in engine.variants} | {
        str(engine.label(run.view, a)) for a in engine.actions(run.state)}
    for node in await page.locator("button, h1, h2, h3, .label, th, dt").element_handles():
        # A heading may join the server's words and names with " · ".
        for part in (await node.text_content()).strip().split(" · "):
            assert not part or part in allowed or "‹" in part, part
    await tab.close()
