"""An older table picture never lands on a newer board: the version check and the edit of
``bot.dressing.TablePictures`` are one step per run, so the newest board's picture is always
the last one put on the message."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.dressing import TablePictures


class Message:
    """The answered board: which version's picture it shows, edits taking ``delay`` s."""

    def __init__(self) -> None:
        self.shown: list[int] = []

    def interaction(self, version: int, delay: float) -> Any:
        async def edit_original_response(**kwargs: Any) -> None:
            await asyncio.sleep(delay)  # the request in flight
            self.shown.append(version)

        return SimpleNamespace(edit_original_response=edit_original_response)


async def test_a_newer_boards_picture_lands_after_an_older_one_in_flight():
    stored = {"version": 1}

    async def version(run_id: int) -> int:
        return stored["version"]

    bot = SimpleNamespace(core=SimpleNamespace(runs=SimpleNamespace(version=version)))
    tables = TablePictures(bot)  # type: ignore[arg-type]

    async def png(view: dict[str, Any], last_action: str | None) -> bytes:
        return b"\x89PNG"

    tables.png = png  # type: ignore[method-assign]
    message = Message()
    old = SimpleNamespace(id=7, version=1, view={})
    new = SimpleNamespace(id=7, version=2, view={})

    tables.attach_later(message.interaction(1, delay=0.05), old, None)  # a slow edit
    await asyncio.sleep(0.01)  # version 1 checked, its edit in flight
    stored["version"] = 2  # the next click is answered with version 2's board
    tables.attach_later(message.interaction(2, delay=0.0), new, None)
    await asyncio.gather(*tables._tasks)

    assert message.shown[-1] == 2, message.shown
    assert tables._runs == {}
