"""The yardstick's picture (``bench._minimal_bot --pictures``): a real PNG of the run, drawn in
its worker process, so that what ``bench.load --minimal-pictures`` measures is a bot sending
real pictures."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image

import bench._minimal_bot as minimal_bot
from bench._minimal_bot import CLICKS, constant_picture, picture
from core.quick_worker import QuickWorker


def filled_coins(png: bytes) -> int:
    """The coins drawn filled, read off the picture (a point inside each coin's ring)."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (640, 160)
    return sum(image.getpixel((16 + (i % 15) * 40 + 6, 48 + (i // 15) * 52 + 16)) == 180
               for i in range(CLICKS))


def test_the_picture_shows_the_clicks_made_as_filled_coins():
    assert filled_coins(picture(7, 0)) == 0
    assert filled_coins(picture(7, 12)) == 12
    assert filled_coins(picture(7, CLICKS)) == CLICKS
    assert picture(7, 12) != picture(7, 13)


def test_the_picture_is_about_a_table_pictures_size():
    """Within a few KB of the project's tables (9-16 KB): the bytes sent are part of the cost."""
    assert 3_000 < len(picture(7, 12)) < 20_000


@pytest.fixture
def worker() -> Iterator[QuickWorker]:
    """A worker process as the minimal bot's (started at its first job), closed after."""
    started = QuickWorker()
    yield started
    started.close()


async def test_the_worker_process_draws_the_same_picture(worker):
    assert await worker.run(picture, 3, 5) == picture(3, 5)


def test_the_constant_picture_is_drawn_once_whatever_the_board(monkeypatch):
    """``--pictures constant``: one drawing, sent back for every board."""
    drawn: list[tuple[int, int]] = []

    def counting(run_id: int, clicks: int) -> bytes:
        drawn.append((run_id, clicks))
        return picture(run_id, clicks)

    monkeypatch.setattr(minimal_bot, "picture", counting)
    minimal_bot._drawn_once.cache_clear()
    try:
        first = constant_picture(3, 5)
        assert constant_picture(9, 29) == constant_picture(4, 1) == first == picture(0, 0)
        assert drawn == [(0, 0)]
    finally:
        minimal_bot._drawn_once.cache_clear()


async def test_the_worker_sends_the_constant_picture_back(worker):
    assert await worker.run(constant_picture, 9, 29) == picture(0, 0)
