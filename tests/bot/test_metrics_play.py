"""Playing moves the metrics: clicks by outcome, their latency, runs started and finished,
scraped over HTTP from the endpoint ``METRICS_PORT`` serves, with the real bot (simcord)."""

from __future__ import annotations

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import OUTCOMES, bound_port, start_http


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    async with aiohttp.ClientSession() as http, \
            http.get(f"http://127.0.0.1:{port}/metrics") as response:
        text = await response.text()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_clicks_and_runs_show_in_the_scrape(world, error_logs):
    runner = await start_http(0, lambda: (True, "ok"))
    port = bound_port(runner)
    try:
        before = await scrape(port)
        board = await world.play(world.alice, "donsol")
        board = (await world.click(world.alice, board, world.moves(board)[0]["custom_id"])).response
        not_hers = await world.click(world.bob, board, world.moves(board)[0]["custom_id"])
        assert not_hers.ephemeral
        asked = await world.click(world.alice, board, world.control(board, "resign")["custom_id"])
        done = await world.click(
            world.alice, asked.response, world.control(asked.response, "confirm")["custom_id"])
        assert not world.moves(done.response)
        after = await scrape(port)
    finally:
        await runner.cleanup()

    def delta(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    clicks = {o: delta("dungeon_deck_clicks_total", outcome=o) for o in OUTCOMES}
    assert clicks == {"ok": 3, "stale": 0, "refused": 1, "error": 0}
    assert delta("dungeon_deck_click_seconds_count") == 4
    assert delta("dungeon_deck_click_seconds_bucket", le="+Inf") == 4
    run = {"game": "donsol", "kind": "practice"}
    assert delta("dungeon_deck_runs_started_total", **run) == 1
    assert delta("dungeon_deck_runs_finished_total", **run) == 1
