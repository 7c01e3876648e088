"""Health and metrics: what ``METRICS_PORT`` serves, scraped over HTTP as Prometheus would."""

from __future__ import annotations

import asyncio
import math

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.metrics import OUTCOMES, Metrics, bound_port, start_http
from store import open_store


async def scrape(port: int, path: str = "/metrics") -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as r:
        return r.status, await r.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape: (name, sorted labels) -> value."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_the_scrape_shows_clicks_runs_and_database_time_as_they_happen():
    m = Metrics()
    runner = await start_http(0, lambda: (True, "ok"), m)
    try:
        port = bound_port(runner)
        status, text = await scrape(port)
        assert status == 200
        first = samples(text)
        for outcome in OUTCOMES:  # every outcome is there from the start, at 0
            assert first[("dungeon_deck_clicks_total", (("outcome", outcome),))] == 0

        m.click("ok", 0.003)
        m.click("ok", 0.0004)
        m.click("refused", 0.2)
        m.run_started("donsol", "practice")
        m.run_started("tomb", "daily")
        m.run_finished("donsol", "practice")
        m.db_time(0.0007)
        _, text = await scrape(port)
        now = samples(text)
    finally:
        await runner.cleanup()

    assert now[("dungeon_deck_clicks_total", (("outcome", "ok"),))] == 2
    assert now[("dungeon_deck_clicks_total", (("outcome", "refused"),))] == 1
    assert now[("dungeon_deck_clicks_total", (("outcome", "stale"),))] == 0
    assert now[("dungeon_deck_click_seconds_count", ())] == 3
    assert now[("dungeon_deck_click_seconds_bucket", (("le", "0.001"),))] == 1
    assert now[("dungeon_deck_click_seconds_bucket", (("le", "0.005"),))] == 2
    assert now[("dungeon_deck_click_seconds_bucket", (("le", "+Inf"),))] == 3
    runs = (("game", "donsol"), ("kind", "practice"))
    assert now[("dungeon_deck_runs_started_total", runs)] == 1
    assert now[("dungeon_deck_runs_started_total", (("game", "tomb"), ("kind", "daily")))] == 1
    assert now[("dungeon_deck_runs_finished_total", runs)] == 1
    assert now[("dungeon_deck_db_seconds_count", ())] == 1
    assert math.isclose(now[("dungeon_deck_db_seconds_sum", ())], 0.0007)
    assert ("process_cpu_seconds_total", ()) in now


async def test_healthz_says_why_it_is_not_healthy_and_only_listens_on_loopback():
    state = {"health": (False, "connecting")}
    runner = await start_http(0, lambda: state["health"], Metrics())
    try:
        port = bound_port(runner)
        assert runner.addresses[0][0] == "127.0.0.1"
        assert await scrape(port, "/healthz") == (503, "connecting\n")
        state["health"] = (True, "ok")
        assert await scrape(port, "/healthz") == (200, "ok\n")
        assert (await scrape(port, "/"))[0] == 404
    finally:
        await runner.cleanup()


async def test_the_gateway_latency_is_read_at_each_scrape():
    m = Metrics()
    latency = {"now": math.inf}  # discord.py's value before the first heartbeat
    m.watch_gateway(lambda: latency["now"])
    runner = await start_http(0, lambda: (True, "ok"), m)
    try:
        port = bound_port(runner)
        before = samples((await scrape(port))[1])[("dungeon_deck_gateway_latency_seconds", ())]
        latency["now"] = 0.042
        after = samples((await scrape(port))[1])[("dungeon_deck_gateway_latency_seconds", ())]
    finally:
        await runner.cleanup()
    assert math.isnan(before)
    assert after == 0.042


def test_the_module_functions_record_into_the_process_metrics():
    def value(name: str, **labels: str) -> float:
        found = metrics.METRICS.registry.get_sample_value(name, labels)
        return found or 0.0

    clicks = value("dungeon_deck_clicks_total", outcome="stale")
    started = value("dungeon_deck_runs_started_total", game="clear", kind="practice")
    finished = value("dungeon_deck_runs_finished_total", game="clear", kind="practice")
    db = value("dungeon_deck_db_seconds_count")

    metrics.click("stale", 0.002)
    metrics.run_started("clear", "practice")
    metrics.run_finished("clear", "practice")
    metrics.db_time(0.001)

    assert value("dungeon_deck_clicks_total", outcome="stale") == clicks + 1
    assert value("dungeon_deck_runs_started_total", game="clear", kind="practice") == started + 1
    assert value("dungeon_deck_runs_finished_total", game="clear", kind="practice") == (
        finished + 1)
    assert value("dungeon_deck_db_seconds_count") == db + 1


def test_a_click_timer_records_the_outcome_set_or_error_when_it_raises():
    m = Metrics()

    with metrics.click_timer(m):
        pass
    with metrics.click_timer(m) as timer:
        timer.outcome = "stale"
    try:
        with metrics.click_timer(m) as timer:
            timer.outcome = "refused"
            raise KeyError("a bug in a handler")
    except KeyError:
        pass

    def count(outcome: str) -> float:
        return m.registry.get_sample_value("dungeon_deck_clicks_total", {"outcome": outcome})

    assert [count(o) for o in ("ok", "stale", "refused", "error")] == [1, 1, 0, 1]
    assert m.registry.get_sample_value("dungeon_deck_click_seconds_count") == 3


async def test_every_transaction_of_a_store_counts_as_database_time(tmp_path):
    m = Metrics()
    store = await open_store(tmp_path / "deck.sqlite3")
    try:
        await store.migrate()
        metrics.time_store(store, m)
        await store.write(lambda tx: tx.set_meta("greeting", "hello"))
        assert await store.read(lambda tx: tx.meta("greeting")) == "hello"
    finally:
        await store.close()
    assert m.registry.get_sample_value("dungeon_deck_db_seconds_count") == 2
    assert m.registry.get_sample_value("dungeon_deck_db_seconds_sum") > 0


async def test_a_timed_click_handler_records_each_click_with_the_outcome_it_declared():
    def seen() -> dict[str, float]:
        return {o: metrics.METRICS.registry.get_sample_value(
            "dungeon_deck_clicks_total", {"outcome": o}) for o in OUTCOMES}

    @metrics.timed_click
    async def answer(what: str) -> str:
        if what in ("stale", "refused"):
            await asyncio.sleep(0)  # the outcome is the click's own, across awaits
            metrics.click_outcome(what)
        if what == "bug":
            raise RuntimeError("a bug in a handler")
        return what

    before = seen()
    results = await asyncio.gather(
        *(answer(w) for w in ("move", "stale", "refused", "move", "bug")),
        return_exceptions=True,
    )
    after = seen()

    assert results[:4] == ["move", "stale", "refused", "move"]
    assert isinstance(results[4], RuntimeError)
    assert {o: after[o] - before[o] for o in OUTCOMES} == {
        "ok": 2, "stale": 1, "refused": 1, "error": 1}
    metrics.click_outcome("refused")  # outside a click: nothing to record, no error
    assert seen() == after
    assert answer.__name__ == "answer"




async def test_a_killed_worker_is_counted_by_lane_in_metrics():
    import os
    import signal
    from concurrent.futures.process import BrokenProcessPool

    import pytest

    from core.workers import PICTURES, Workers

    m = Metrics()
    workers = Workers()
    m.watch_workers(workers)
    try:
        pid = await workers.run(PICTURES, os.getpid)
        with pytest.raises(BrokenProcessPool):
            await workers.run(PICTURES, os.kill, pid, signal.SIGKILL)
        assert await workers.run(PICTURES, os.getpid) != pid  # a new one
    finally:
        workers.close()
    text = m.exposition().decode()
    assert 'dungeon_deck_worker_deaths_total{lane="pictures"} 1.0' in text
    assert 'dungeon_deck_worker_deaths_total{lane="interactive"} 0.0' in text
    assert workers.deaths == {"background": 0, "interactive": 0, "pictures": 1}
