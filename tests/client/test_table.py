"""The browser table as a player meets it: signing in through the SDK mock, every game
played to its end by touching cards at phone width, the keyboard, a screen reader's names,
a card with several moves, a stale tab, the daily, the boards with /verify and the replay
viewer, and no word on the page that the server did not send."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules import GAMES
from tests.client.conftest import Site

PHONE = {"width": 360, "height": 740}
LEGAL = "g.legal, .moves button"


def open_page(browser: Any, site: Site, user: str, viewport: dict[str, int] = PHONE,
              url: str | None = None) -> Any:
    page = browser.new_page(viewport=viewport, device_scale_factor=2)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # A Content-Security-Policy refusal is a console error too.
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text
            else None)
    page.errors = errors
    page.goto(url or f"{site.url}/?mock_code={user}")
    page.wait_for_selector("#app[data-ready]", timeout=15000)
    return page


def closed(page: Any) -> None:
    """Closes `page`, which must have thrown no error and broken no CSP rule."""
    errors = page.errors
    page.close()
    assert errors == []


def version(page: Any) -> int:
    return int(page.get_attribute(".board", "data-version"))


def moved_on(page: Any, before: int) -> None:
    """Waits until the table shows another version than `before` (a function, not a string:
    the page's CSP allows no eval, and Playwright evaluates strings with it)."""
    page.wait_for_function("v => document.querySelector('.board')?.dataset.version !== v",
                           arg=str(before), timeout=5000)


def play(page: Any, target: Any) -> None:
    """Touches `target` (a legal card or move button) and waits for the table to move on;
    a card with several moves asks which, and the first is taken."""
    before = version(page)
    target.click()
    choice = page.locator('.choice:not([hidden]) [data-move="choice"]')
    if choice.count():
        choice.first.click()
    moved_on(page, before)


def legal_moves_fit(page: Any) -> None:
    """Every legal move is on screen at phone width, and nothing scrolls sideways."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for handle in page.locator(LEGAL).element_handles():
        box = handle.bounding_box()
        assert box is not None and box["width"] > 0
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box


@pytest.mark.parametrize("game", list(GAMES))
def test_a_practice_run_is_played_to_its_end_by_touching_cards(browser, site, game):
    page = open_page(browser, site, f"player{game}")
    page.click(f'[data-testid="game-{game}"]')
    page.click('[data-testid="start-practice"]')
    page.wait_for_selector('[data-testid="table"]')
    run = next(r for r in site.fixture.runs.values() if r.user == f"player{game}")
    for _ in range(400):
        if page.get_attribute('[data-testid="status"]', "data-status") != "playing":
            break
        legal_moves_fit(page)
        # The table offers exactly the engine's legal moves, each once, by card or button.
        offered = set()
        for handle in page.locator(LEGAL).element_handles():
            offered.update((handle.get_attribute("data-actions")
                            or handle.get_attribute("data-action")).split("|"))
        assert offered == set(GAMES[game].actions(run.state))
        cards = page.locator("g.legal")
        play(page, cards.first if cards.count() else page.locator(".moves button").first)
    assert page.get_attribute('[data-testid="status"]', "data-status") == "over"
    assert GAMES[game].view(run.state)["over"]
    # The finished table still shows the outcome and offers nothing to touch.
    assert page.locator(LEGAL).count() == 0
    closed(page)


def test_every_card_and_move_is_named_for_a_screen_reader(browser, site):
    page = open_page(browser, site, "reader")
    page.click('[data-testid="game-scoundrel"]')
    page.click('[data-testid="start-practice"]')
    page.wait_for_selector('[data-testid="table"]')
    run = next(r for r in site.fixture.runs.values() if r.user == "reader")
    game = GAMES["scoundrel"]
    view = game.view(run.state)
    labels = {a: str(game.label(view, a)) for a in game.actions(run.state)}
    for card in page.locator("g.card").element_handles():
        assert card.get_attribute("aria-label"), card.get_attribute("data-testid")
    for card in page.locator("g.legal").element_handles():
        assert card.get_attribute("role") == "button"
        assert card.get_attribute("tabindex") == "0"
        actions = card.get_attribute("data-actions").split("|")
        said = card.get_attribute("aria-label")
        # The words are the moves' own labels, the same as the bot's buttons.
        assert all(labels[a] in said for a in actions)
    table = page.locator('[data-testid="table"]')
    assert table.get_attribute("aria-label") == "The Scoundrel table"
    play(page, page.locator("g.legal").first)
    page.wait_for_function("() => document.getElementById('live').textContent.length > 0")
    live = page.text_content("#live")
    assert GAMES["scoundrel"].view(run.state)["events"][0] in live
    closed(page)


def test_the_keyboard_plays_undoes_and_hints(browser, site):
    page = open_page(browser, site, "keys")
    page.click('[data-testid="game-donsol"]')
    page.click('[data-testid="start-practice"]')
    page.wait_for_selector('[data-testid="table"]')
    start = version(page)
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.getAttribute('data-move')")
    assert focused in ("card", "button")
    page.keyboard.press("Enter")
    choice = page.locator('.choice:not([hidden]) [data-move="choice"]')
    if choice.count():
        page.keyboard.press("Enter")
    moved_on(page, start)
    run = next(r for r in site.fixture.runs.values() if r.user == "keys")
    assert len(run.actions) == 1
    moved = version(page)
    page.keyboard.press("u")
    moved_on(page, moved)
    assert run.actions == []
    page.keyboard.press("h")
    page.wait_for_selector('[data-testid="hint-text"]')
    hinted = page.locator(".hinted")
    assert hinted.count() >= 1
    assert "Keys:" in page.text_content('[data-testid="shortcuts"]')
    closed(page)


def test_a_card_with_several_moves_asks_which(browser, site):
    page = open_page(browser, site, "chooser")
    page.click('[data-testid="game-clear"]')
    page.click('[data-testid="start-practice"]')
    page.wait_for_selector('[data-testid="table"]')
    card = page.locator('g.legal[data-actions*="|"]').first
    actions = card.get_attribute("data-actions").split("|")
    card.click()
    buttons = page.locator('.choice:not([hidden]) [data-move="choice"]')
    offered = sorted(b.get_attribute("data-action") for b in buttons.element_handles())
    assert offered == sorted(actions)
    chosen = actions[-1]
    before = version(page)
    page.click(f'.choice [data-action="{chosen}"]')
    moved_on(page, before)
    run = next(r for r in site.fixture.runs.values() if r.user == "chooser")
    assert run.actions == [chosen]
    # The last move's card is highlighted.
    code = chosen.split(" ")[1]
    assert "last" in page.get_attribute(f'g[data-card="{code}"]', "class")
    closed(page)


def test_a_move_from_an_old_tab_is_refused_and_the_table_redrawn(browser, site):
    old = open_page(browser, site, "twotabs")
    old.click('[data-testid="game-donsol"]')
    old.click('[data-testid="start-practice"]')
    old.wait_for_selector('[data-testid="table"]')
    new = open_page(browser, site, "twotabs")
    new.click('[data-testid="game-donsol"]')
    new.click('[data-testid="start-practice"]')
    new.wait_for_selector('[data-testid="table"]')
    play(new, new.locator(LEGAL).first)
    run = next(r for r in site.fixture.runs.values() if r.user == "twotabs")
    moved = list(run.actions)
    stale = version(old)
    old.locator(LEGAL).last.click()
    choice = old.locator('.choice:not([hidden]) [data-move="choice"]')
    if choice.count():
        choice.first.click()
    moved_on(old, stale)
    assert "out of date" in old.text_content('[data-testid="notice"]')
    assert version(old) == run.version
    assert run.actions == moved
    closed(old)
    closed(new)


def test_the_daily_is_played_once_and_shows_its_commitment(browser, site):
    page = open_page(browser, site, "dailyplayer")
    page.click('[data-testid="game-tomb"]')
    commitment = page.text_content('[data-testid="commitment"]')
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    page.click('[data-testid="start-daily"]')
    page.wait_for_selector('[data-testid="table"]')
    assert "Daily #5" in page.text_content('[data-testid="run-title"]')
    page.click('[data-testid="resign"]')
    page.click('[data-testid="resign-yes"]')
    page.wait_for_selector('[data-status="resigned"]')
    page.click('[data-testid="start-daily"]')
    page.wait_for_selector('[data-testid="notice"].shown')
    assert page.text_content('[data-testid="notice"]') == "You have played today's daily."
    # The refusal carries the finished run: the table shows it, over.
    assert page.get_attribute('[data-testid="status"]', "data-status") == "resigned"
    closed(page)


def test_a_closed_day_verifies_and_replays(browser, site):
    page = open_page(browser, site, "watcher")
    page.click('[data-testid="game-donsol"]')
    page.click('[data-testid="screen-boards"]')
    page.wait_for_selector('[data-testid="boards"][data-closed="false"]')
    assert page.get_attribute('[data-testid="verify"]', "disabled") is not None
    page.click('[data-testid="previous-day"]')
    page.wait_for_selector('[data-testid="boards"][data-closed="true"]')
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.text_content('[data-testid="board-seed"]') == "7"
    page.click('[data-testid="verify"]')
    page.wait_for_selector('[data-testid="verify-result"][data-matches="true"]')
    bob = next(r for r in site.fixture.runs.values() if r.user == "bob" and r.game == "donsol")
    page.click(f'[data-testid="replay-{bob.id}"]')
    page.wait_for_selector('[data-testid="replay"][data-step="0"]')
    steps = len(bob.actions)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('[data-testid="replay"][data-step="1"]')
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.text_content('[data-testid="replay-action"]').endswith(
        str(GAMES["donsol"].label(GAMES["donsol"].view(bob.states[1]), bob.actions[0])))
    page.click('[data-testid="replay-last"]')
    page.wait_for_selector(f'[data-testid="replay"][data-step="{steps}"]')
    assert page.get_attribute('[data-testid="replay-forward"]', "disabled") is not None
    page.click('[data-testid="replay-turning"]')
    page.wait_for_selector(f'[data-testid="replay"][data-step="{steps // 2}"]')
    page.click('[data-testid="replay-first"]')
    page.wait_for_selector('[data-testid="replay"][data-step="0"]')
    # The replay is a picture: nothing on it can be touched.
    assert page.locator(LEGAL).count() == 0
    closed(page)


def test_a_day_without_a_daily_is_refused_in_place_with_a_way_back(browser, site):
    page = open_page(browser, site, "pastdays")
    page.click('[data-testid="screen-boards"]')
    page.wait_for_selector('[data-testid="boards"]')
    page.click('[data-testid="previous-day"]')
    page.wait_for_selector('[data-testid="boards"][data-closed="true"]')
    page.click('[data-testid="previous-day"]')
    page.wait_for_selector('[data-testid="notice"][data-code="not_found"]')
    assert page.text_content('[data-testid="notice"]') == "There was no daily that day."
    page.click('[data-testid="boards-today"]')
    page.wait_for_selector('[data-testid="boards"][data-closed="false"]')
    closed(page)


def test_stats_and_rules_are_the_servers(browser, site):
    page = open_page(browser, site, "reader2")
    page.click('[data-testid="game-clear"]')
    page.click('[data-testid="screen-rules"]')
    page.wait_for_selector('[data-testid="rules"] h2')
    assert page.text_content('[data-testid="rules"] h2') == "Clear the Dungeon"
    page.click('[data-testid="screen-stats"]')
    page.wait_for_selector('[data-testid="stats"] dt')
    assert page.text_content('[data-testid="stats-finished"]') == "0"
    assert page.locator('[data-testid="stats-recent"] li').count() == 2
    closed(page)


def test_a_failed_sign_in_shows_the_servers_sentence(browser, site):
    page = open_page(browser, site, "", url=f"{site.url}/?mock_code=")
    assert page.get_attribute("#app", "data-ready") == "error"
    assert page.text_content('[data-testid="signin-error"]') == "Discord did not sign you in."
    closed(page)


def test_an_expired_token_is_refused_and_signing_in_again_goes_on(browser, site):
    page = open_page(browser, site, "expiring")
    page.click('[data-testid="start-practice"]')
    page.wait_for_selector('[data-testid="table"]')
    run = next(r for r in site.fixture.runs.values() if r.user == "expiring")
    site.fixture.revoke("expiring")
    before = version(page)
    page.locator(LEGAL).first.click()
    choice = page.locator('.choice:not([hidden]) [data-move="choice"]')
    if choice.count():
        choice.first.click()
    page.wait_for_selector('[data-testid="notice"][data-code="signed_out"]')
    assert "You are signed out." in page.text_content('[data-testid="notice"]')
    assert run.actions == [] and version(page) == before
    page.click('[data-testid="sign-in-again"]')
    page.wait_for_selector("#app[data-ready]")
    page.click('[data-testid="start-practice"]')
    page.wait_for_selector('[data-testid="table"]')
    play(page, page.locator(LEGAL).first)
    assert len(run.actions) == 1
    closed(page)


def test_every_word_on_the_page_is_the_servers(browser):
    marked = Site(words={key: f"‹{key}›" for key in _client_keys()})
    try:
        page = open_page(browser, marked, "words")
        page.click('[data-testid="start-practice"]')
        page.wait_for_selector('[data-testid="table"]')
        run = next(iter(r for r in marked.fixture.runs.values() if r.user == "words"))
        view = GAMES[run.game].view(run.state)
        allowed = {g.title for g in GAMES.values()} | {"words"} | {
            str(GAMES[run.game].variant_name(v)) for v in GAMES[run.game].variants} | {
            str(GAMES[run.game].label(view, a)) for a in GAMES[run.game].actions(run.state)}
        for node in page.locator("button, h1, h2, h3, .label, th, dt").element_handles():
            # A heading may join the server's words and names with " · ".
            for part in node.text_content().strip().split(" · "):
                assert not part or part in allowed or "‹" in part, part
        closed(page)
    finally:
        marked.close()


def _client_keys() -> list[str]:
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "web/client/src/words.ts").read_text()
    block = source[source.index("WORD_KEYS"):source.index("] as const")]
    return re.findall(r'"([a-z_]+)"', block)
