"""The API's reading routes and a daily played to the end through it: the boards, stats,
verify, replays and rules a client shows, a hint, and a daily ranked beside one played with
buttons (the core calls a click makes)."""

from __future__ import annotations

import asyncio

from aiohttp.test_utils import TestClient, TestServer

from bench._standin.oauth import CLIENT_ID
from core import RunKind
from rules import GAMES
from tests.web.conftest import Table
from web.app import create_app
from web.config import WebConfig

ALICE, BOB = 1_000_000_000_000_001, 1_000_000_000_000_002


async def play_to_the_end(player, start: dict) -> dict:
    payload = start
    for _ in range(400):
        if payload["run"]["status"] != "playing":
            return payload
        answer = await player.post(f"/api/runs/{payload['run']['id']}/move", {
            "version": payload["run"]["version"], "action": payload["actions"][0]["action"]})
        assert answer.status == 200, answer.data
        payload = answer.data
    raise AssertionError("the run never ended")


async def test_a_daily_played_in_the_browser_ranks_beside_one_played_with_buttons(
        table: Table) -> None:
    alice = await table.sign_in(ALICE, "alice", global_name="Alice A.")
    start = await alice.post("/api/runs", {"game": "scoundrel", "kind": "daily"})
    end = await play_to_the_end(alice, start.data)
    assert end["run"]["status"] == "over" and end["actions"] == []
    assert end["can"] == {"undo": False, "resign": False, "hint": False}
    # Bob plays the same deal the way a button does: the core's daily, then act per click.
    await table.core.rankings.remember_name(BOB, "bob")
    run = (await table.core.daily.start(BOB, "scoundrel")).run
    while not run.over:
        run = await table.core.runs.act(run.id, BOB, run.version, run.actions[-1])
    board = await table.core.rankings.board("scoundrel")
    assert sorted(line.name for line in board.lines) == ["Alice A.", "bob"]
    assert {line.run_id for line in board.lines} == {end["run"]["id"], run.id}

    shown = await alice.get("/api/boards/scoundrel")
    assert shown.status == 200
    assert shown.data["day"] == "2026-12-01" and shown.data["closed"] is False
    assert shown.data["seed"] is None
    assert sorted(line["name"] for line in shown.data["lines"]) == ["Alice A.", "bob"]
    mine = [line for line in shown.data["lines"] if line["you"]]
    assert [line["name"] for line in mine] == ["Alice A."]
    assert mine[0]["score_text"] == end["run"]["score_text"]

    stats = await alice.get("/api/stats/scoundrel")
    assert stats.status == 200
    assert stats.data["finished"] == 1 and stats.data["dailies"] == 1
    assert stats.data["current_streak"] == 1
    assert stats.data["recent"][-1]["played"] is True


async def test_verify_shows_the_seed_once_the_day_closes(table: Table) -> None:
    alice = await table.sign_in(ALICE)
    today = await alice.get("/api/verify/donsol")
    assert today.status == 200
    assert today.data["seed"] is None and today.data["matches"] is None
    assert "revealed when its boards close" in today.data["message"]
    table.clock.advance(days=2)
    day = await alice.get("/api/verify/donsol?day=2026-12-01")
    assert day.data["commitment"] == today.data["commitment"]
    assert day.data["seed"].isdigit() and day.data["matches"] is True
    assert "commitment matches" in day.data["message"]
    bad = await alice.get("/api/verify/donsol?day=tomorrow-ish")
    assert bad.status == 400 and bad.error["code"] == "bad_request"


async def test_a_closed_days_seed_reaches_a_browser_digit_for_digit(table: Table) -> None:
    alice = await table.sign_in(ALICE)
    table.clock.advance(days=2)
    seed = await table.core.daily.revealed_seed("donsol", "normal", "2026-12-01")
    assert seed > 2**53  # beyond what a JavaScript number holds exactly
    board = await alice.get("/api/boards/donsol?day=2026-12-01")
    verify = await alice.get("/api/verify/donsol?day=2026-12-01")
    assert board.data["seed"] == verify.data["seed"] == str(seed)


async def test_a_day_before_the_first_daily_has_no_board(table: Table) -> None:
    alice = await table.sign_in(ALICE)
    before = table.snapshot()
    for path in ("/api/boards/donsol?day=2026-11-30", "/api/verify/donsol?day=2026-11-30"):
        refused = await alice.get(path)
        assert refused.status == 422 and refused.error["code"] == "refused"
        assert refused.error["message"] == (
            "There was no daily on 2026-11-30: the dailies start at #1 (2026-12-01).")
    assert table.snapshot() == before


async def test_a_closed_days_daily_replays_step_by_step(table: Table) -> None:
    table.core.replays.budget_per_step = 40  # a turning point worked out quickly
    alice = await table.sign_in(ALICE)
    start = await alice.post("/api/runs", {"game": "donsol", "kind": "daily"})
    end = await play_to_the_end(alice, start.data)
    run_id = end["run"]["id"]
    early = await alice.get(f"/api/replays/{run_id}")
    assert early.status == 422 and "still open" in early.error["message"]
    assert (await alice.get("/api/boards/donsol")).data["lines"][0]["run"] is None  # open
    table.clock.advance(days=2)
    closed = await alice.get("/api/boards/donsol?day=2026-12-01")
    assert closed.data["closed"] is True and closed.data["seed"].isdigit()
    assert [line["run"] for line in closed.data["lines"]] == [run_id]  # now replayable
    first = await alice.get(f"/api/replays/{run_id}")
    assert first.status == 200, first.data
    assert first.data["step"] == 0 and first.data["steps"] == end["run"]["moves"]
    assert first.data["action"] is None
    second = await alice.get(f"/api/replays/{run_id}?step=1")
    moves = await table.core.runs.moves(run_id)
    assert second.data["action"] == moves[0] and second.data["label"]
    past = await alice.get(f"/api/replays/{run_id}?step=99999")
    assert past.data["step"] == end["run"]["moves"]


async def test_the_viewers_steps_work_out_the_turning_point_once(table: Table) -> None:
    """Each step the replay viewer asks for needs the turning point; asked for again while it
    is being worked out (a player stepping on), it was worked out again in the one worker
    every hint waits on: three steps, three searches of seconds each queued before a hint."""
    table.core.replays.budget_per_step = 40
    alice = await table.sign_in(ALICE)
    start = await alice.post("/api/runs", {"game": "clear", "kind": "daily"})
    run_id = (await play_to_the_end(alice, start.data))["run"]["id"]
    table.clock.advance(days=2)
    searches = []
    real = table.core.workers.run

    async def counted(lane, fn, *args):
        searches.append(fn.__name__)
        return await real(lane, fn, *args)

    table.core.workers.run = counted  # type: ignore[method-assign]
    steps = await asyncio.gather(*(alice.get(f"/api/replays/{run_id}?step={n}")
                                   for n in range(3)))
    assert [answer.status for answer in steps] == [200, 200, 200]
    assert len({repr(answer.data["turning_point"]) for answer in steps}) == 1
    assert searches == ["compute_turn"]


async def test_rules_come_in_the_players_language(table: Table) -> None:
    alice = await table.sign_in(ALICE, locale="fr")
    rules = await alice.get("/api/rules/donsol")
    assert rules.status == 200 and rules.data["language"] == "fr"
    assert rules.data["text"].startswith("# ")
    english = await (await table.sign_in(BOB)).get("/api/rules/donsol")
    assert english.data["text"] != rules.data["text"]


async def test_a_hint_on_a_practice_run(table: Table) -> None:
    table.core.hints.budget, table.core.hints.samples = 200, 2
    alice = await table.sign_in(ALICE)
    start = (await alice.post("/api/runs", {"game": "donsol"})).data
    hinted = await alice.post(f"/api/runs/{start['run']['id']}/hint",
                              {"version": start["run"]["version"]})
    assert hinted.status == 200, hinted.data
    assert hinted.data["hint"]["action"] in [a["action"] for a in start["actions"]]
    assert hinted.data["hint"]["label"] and hinted.data["hint"]["reason"]
    assert hinted.data["run"]["version"] == start["run"]["version"] + 1
    run = await table.core.runs.get(start["run"]["id"])
    assert run.hinted and run.kind is RunKind.PRACTICE


async def test_every_game_deals_a_payload_with_its_cards(table: Table) -> None:
    alice = await table.sign_in(ALICE)
    for game in GAMES:
        payload = (await alice.post("/api/runs", {"game": game})).data
        assert payload["run"]["title"] == GAMES[game].title
        assert payload["actions"], game
        for action in payload["actions"]:
            assert all(card in action["action"] for card in action["cards"])
        assert payload["view"]["prompt"] == payload["run"]["prompt"]


async def test_static_files_and_the_proxy_prefix(table: Table, tmp_path) -> None:
    config = await table.request("GET", "/.proxy/api/config")  # before signing in
    assert config.status == 200 and config.data == {"client_id": CLIENT_ID}
    health = await table.request("GET", "/.proxy/api/health")
    assert health.status == 200 and health.data == {"ok": True}
    assert "default-src 'self'" in health.headers["Content-Security-Policy"]
    alice = await table.sign_in(ALICE)
    assert (await alice.get("/.proxy/api/me")).status == 200
    missing = await alice.get("/api/nothing-here")
    assert missing.status == 404 and missing.error["code"] == "not_found"
    assert (await table.request("GET", "/api/nothing-here")).status == 401  # signed out first

    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>table</title>")
    (dist / "assets" / "app-1a2b.js").write_text("console.log(1)")
    (tmp_path / "secret.txt").write_text("not served")
    app = create_app(table.core, WebConfig(port=0, discord_api=table.oauth.api), dist=dist)
    async with TestServer(app, host="127.0.0.1") as server, TestClient(server) as client:
        for prefix in ("", "/.proxy"):
            page = await client.get(prefix + "/")
            assert page.status == 200 and "table" in await page.text()
            assert page.headers["Cache-Control"] == "no-store"
            assert "frame-ancestors" in page.headers["Content-Security-Policy"]
            script = await client.get(prefix + "/assets/app-1a2b.js")
            assert script.status == 200 and "immutable" in script.headers["Cache-Control"]
        for sneaky in ("/assets/..%2Fsecret.txt", "/assets/../../secret.txt", "/faces/..",
                       "/assets/%2e%2e%2fsecret.txt"):
            answer = await client.get(sneaky)  # the client may resolve the dots itself
            assert answer.status in (200, 404), sneaky
            assert "not served" not in await answer.text()
        assert (await client.get("/assets/..%2Fsecret.txt")).status == 404
