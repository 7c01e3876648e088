"""What a player does on the Activity's page, for the browser tests: open a game, start a run,
touch a legal move and wait for the server's answer, and check that the legal moves are on
screen. The selectors are the client's stable attributes (docs/activity-client.md, "Hooks for
tests")."""

from __future__ import annotations

from typing import Any

#: Every legal move on the page: the cards you can touch and the card-less moves' buttons.
LEGAL = "g.legal, .moves button"
CHOICE = '.choice:not([hidden]) [data-move="choice"]'


async def version(page: Any) -> int:
    return int(await page.get_attribute(".board", "data-version"))


async def run_id(page: Any) -> int:
    return int(await page.get_attribute(".board", "data-run"))


async def status(page: Any) -> str:
    return str(await page.get_attribute('[data-testid="status"]', "data-status"))


async def moved_on(page: Any, before: int, timeout: float = 20_000) -> None:
    """Waits until the table shows another version than ``before`` (a function, not a
    string: the page's CSP allows no eval, and Playwright evaluates strings with it)."""
    await page.wait_for_function(
        "v => document.querySelector('.board')?.dataset.version !== v", arg=str(before),
        timeout=timeout)


async def start(page: Any, game: str, kind: str = "practice") -> int:
    """Opens ``game``'s tab and starts (or resumes) its practice run or daily: the run's id."""
    await page.click(f'[data-testid="game-{game}"]')
    # Another run's table may be shown until the answer comes: wait for the answer's.
    async with page.expect_response(
            lambda r: r.url.endswith("/api/runs") and r.request.method == "POST") as answered:
        await page.click(f'[data-testid="start-{kind}"]')
    answer = await answered.value
    assert answer.ok, await answer.text()
    started = int((await answer.json())["run"]["id"])
    await page.wait_for_selector(f'.board[data-run="{started}"] [data-testid="table"]')
    return started


async def touch(page: Any, target: Any) -> None:
    """Touches ``target`` (a legal card or move button); a card with several moves asks
    which, and the first is taken."""
    await target.click()
    choice = page.locator(CHOICE)
    if await choice.count():
        await choice.first.click()


async def play(page: Any, target: Any) -> None:
    """Touches ``target`` and waits for the table to move on."""
    before = await version(page)
    await touch(page, target)
    await moved_on(page, before)


async def first_move(page: Any) -> Any:
    """The first legal move on the page: its first legal card, else its first button."""
    cards = page.locator("g.legal")
    return cards.first if await cards.count() else page.locator(".moves button").first


async def offered(page: Any) -> set[str]:
    """Every action the page offers, by card or button."""
    found: set[str] = set()
    for handle in await page.locator(LEGAL).element_handles():
        actions = (await handle.get_attribute("data-actions")
                   or await handle.get_attribute("data-action"))
        found.update(actions.split("|"))
    return found


#: For each legal move, scrolled into view: what keeps it from being seen and touched.
_HIDDEN_MOVES = """selector => {
    const problems = [];
    const width = window.innerWidth, height = window.innerHeight;
    if (document.documentElement.scrollWidth > width) problems.push("the page scrolls sideways");
    for (const node of document.querySelectorAll(selector)) {
        node.scrollIntoView({block: "nearest", inline: "nearest"});
        const box = node.getBoundingClientRect();
        const name = node.dataset.testid || node.outerHTML.slice(0, 80);
        if (box.width <= 4 || box.height <= 4) { problems.push(`${name} has no size`); continue; }
        if (box.left < -0.5 || box.right > width + 0.5 || box.top < -0.5
            || box.bottom > height + 0.5) {
            problems.push(`${name} is outside the viewport`);
            continue;
        }
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        if (hit === null || (hit !== node && !node.contains(hit))) {
            problems.push(`${name} is covered at its middle`);
        }
    }
    return problems;
}"""


async def legal_moves_shown(page: Any) -> None:
    """Every legal move can be seen and touched: nothing scrolls sideways, and each one,
    scrolled into view, lies inside the viewport, has a size, and is what a touch at its
    middle would hit (not clipped away, not covered by another card or button)."""
    assert await page.locator(LEGAL).count() > 0 or await page.locator(
        '[data-testid="status"][data-status="playing"]').count() == 0
    problems = await page.evaluate(_HIDDEN_MOVES, LEGAL)
    assert problems == [], problems
