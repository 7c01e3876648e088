"""Each game's table as the Activity draws it, at desktop (1000x700) and phone (360x740)
width: a practice run two moves in (the last move's cards ringed), on the real server. With
``UPDATE_SCREENS=1`` (``make screens``) the pictures are written to ``docs/screens/activity/``
(``<game>.png``, ``<game>-phone.png``) for the README, else to the test's own folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rules import GAMES
from tests.client.conftest import DESKTOP, PHONE, Site
from tests.client.pages import first_move, legal_moves_shown, play, start, status

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "activity"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("game", list(GAMES))
async def test_each_games_table_is_pictured_at_both_widths(site: Site, game: str,
                                                           tmp_path: Path) -> None:
    folder = SCREENS if os.environ.get("UPDATE_SCREENS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    tab = await site.open(1, viewport=DESKTOP)
    page = tab.page
    await start(page, game)
    for _ in range(2):
        if await status(page) == "playing":
            await play(page, await first_move(page))
    await page.mouse.move(0, 0)  # no hover ring on the pictured table
    # The same table at both widths: the page lays itself out again for the phone.
    for suffix, viewport in (("", DESKTOP), ("-phone", PHONE)):
        await page.set_viewport_size(viewport)
        await legal_moves_shown(page)
        # Every face drawn on the table has loaded (a picture with a hole is no picture).
        await page.wait_for_load_state("networkidle")
        path = folder / f"{game}{suffix}.png"
        await page.locator('[data-testid="run"]').screenshot(path=str(path),
                                                             animations="disabled")
        data = path.read_bytes()
        assert data.startswith(PNG) and len(data) > 10_000, path
    await tab.close()
