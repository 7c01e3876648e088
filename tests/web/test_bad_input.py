"""Whatever a client sends, the answer is a clear JSON error and nothing is written: wrong
types, huge numbers, unknown actions, other players' runs, random JSON and bytes (hypothesis),
with no traceback in the log. A bug is an error id for the player and a traceback in the log.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.web.conftest import Table

ALICE, BOB = 1_000_000_000_000_001, 1_000_000_000_000_002

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)
bad_numbers = st.one_of(
    st.integers(2**31, 2**80), st.integers(-(2**80), -1), st.floats(allow_nan=False),
    st.booleans(), st.none(), st.text(max_size=12), st.lists(st.integers(), max_size=2),
)
bad_words = st.one_of(
    st.text(max_size=120), st.integers(), st.none(), st.lists(st.text(max_size=5), max_size=2),
    st.sampled_from(["", "x" * 5000, "take", "take ZZ", "escape now", "\x00", "🃏", "DROP"]),
)


@pytest.fixture
async def world(table: Table) -> dict[str, Any]:
    alice = await table.sign_in(ALICE)
    bob = await table.sign_in(BOB)
    mine = (await alice.post("/api/runs", {"game": "donsol"})).data
    theirs = (await bob.post("/api/runs", {"game": "scoundrel"})).data
    daily = (await bob.post("/api/runs", {"game": "clear", "kind": "daily"})).data
    return {"alice": alice, "mine": mine, "theirs": theirs, "daily": daily}


def requests(world: dict[str, Any]) -> st.SearchStrategy[tuple[str, str, Any]]:
    mine, theirs, daily = (world[k]["run"]["id"] for k in ("mine", "theirs", "daily"))
    run_ids = st.one_of(st.sampled_from([theirs, daily, 999_999, 2**63, 10**19 - 1]),
                        st.integers(10_000, 10**18))
    foreign_writes = st.tuples(
        st.just("POST"),
        st.builds(lambda r, verb: f"/api/runs/{r}/{verb}", run_ids,
                  st.sampled_from(["move", "undo", "resign", "hint"])),
        st.fixed_dictionaries({"version": st.integers(0, 5) | bad_numbers,
                               "action": bad_words | st.just("take JS")}))
    own_bad_moves = st.tuples(
        st.just("POST"), st.just(f"/api/runs/{mine}/move"),
        st.one_of(
            st.fixed_dictionaries({"version": bad_numbers, "action": bad_words}),
            st.fixed_dictionaries({"version": st.just(world["mine"]["run"]["version"]),
                                   "action": bad_words}),
            json_values))
    own_bad_controls = st.tuples(
        st.just("POST"),
        st.sampled_from([f"/api/runs/{mine}/undo", f"/api/runs/{mine}/resign",
                         f"/api/runs/{mine}/hint"]),
        st.one_of(st.fixed_dictionaries({"version": bad_numbers}), json_values))
    starts = st.tuples(
        st.just("POST"), st.just("/api/runs"),
        st.one_of(
            st.fixed_dictionaries({"game": bad_words, "variant": bad_words | st.none(),
                                   "kind": st.sampled_from(["practice", "daily"])}),
            st.fixed_dictionaries({"game": st.just("donsol"), "variant": bad_words,
                                   "kind": st.sampled_from(["practice", "daily"])}),
            st.fixed_dictionaries({"game": st.just("tomb"), "kind": bad_words}),
            json_values))
    reads = st.tuples(
        st.just("GET"),
        st.one_of(
            st.builds(lambda g, q: f"/api/boards/{g}?{q}",
                      st.sampled_from(["donsol", "nope", "%00", "x" * 300]),
                      st.sampled_from(["page=-1", "page=99999999999", "page=1e3", "day=never",
                                       "scope=galaxy", "variant=loud", "day=2026-13-45",
                                       "scope=server", "page=%D9%A3"])),
            st.builds(lambda r, q: f"/api/replays/{r}?step={q}", run_ids,
                      st.sampled_from(["-1", "1.5", "x", "99999999999999"])),
            st.builds(lambda r: f"/api/runs/{r}", run_ids),
            st.sampled_from(["/api/stats/none", "/api/verify/donsol?day=13/12/2026",
                             "/api/rules/..", "/api/runs/-1", "/api/runs/abc"])),
        st.none())
    return st.one_of(foreign_writes, own_bad_moves, own_bad_controls, starts, reads)


def is_legal_write(world: dict[str, Any], path: str, body: Any) -> bool:
    """Whether the drawn request is one a real table could send (it would write)."""
    mine = world["mine"]
    if not isinstance(body, dict) or not path.startswith(f"/api/runs/{mine['run']['id']}/"):
        return False
    version = body.get("version")
    if type(version) is not int or version != mine["run"]["version"]:
        return False
    legal = [a["action"] for a in mine["actions"]]
    return not path.endswith("/move") or body.get("action") in legal


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
async def test_bad_input_gets_a_clear_error_and_changes_nothing(
        table: Table, world: dict[str, Any], caplog: pytest.LogCaptureFixture, data) -> None:
    method, path, body = data.draw(requests(world), label="request")
    assume(not is_legal_write(world, path, body))
    assume(not (path == "/api/runs" and isinstance(body, dict)
                and body.get("game") in ("donsol", "tomb", "clear", "scoundrel")
                and body.get("variant") in (None, "normal", "standard")
                and body.get("kind") in ("practice", "daily", None)))
    before = table.snapshot()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        answer = await world["alice"].call(method, path, body)
    assert 400 <= answer.status < 500, (path, body, answer.data)
    assert isinstance(answer.data, dict), answer.data
    error = answer.data["error"]
    assert re.fullmatch(r"[a-z_]+", error["code"])
    assert isinstance(error["message"], str) and error["message"].strip()
    assert "Traceback" not in error["message"] and "error " not in error["message"]
    assert table.snapshot() == before
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(raw=st.binary(max_size=300) | st.text(max_size=200).map(str.encode),
       where=st.sampled_from(["/api/runs", "/api/token", "/api/runs/{mine}/move"]))
async def test_bytes_that_are_not_a_request_change_nothing(
        table: Table, world: dict[str, Any], caplog: pytest.LogCaptureFixture, raw: bytes,
        where: str) -> None:
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = None
    assume(not isinstance(parsed, dict))  # objects are the other test's
    path = where.format(mine=world["mine"]["run"]["id"])
    before = table.snapshot()
    caplog.clear()
    answer = await world["alice"].call("POST", path, raw=raw,
                                       headers={"Content-Type": "application/json"})
    assert answer.status == 400, answer.data
    assert answer.data["error"]["code"] == "bad_request"
    assert table.snapshot() == before
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_a_huge_body_is_refused(table: Table) -> None:
    alice = await table.sign_in(ALICE)
    before = table.snapshot()
    answer = await alice.post("/api/runs", {"game": "donsol", "pad": "x" * 100_000})
    assert answer.status == 413 and answer.data["error"]["code"] == "bad_request"
    assert table.snapshot() == before


async def test_a_bug_answers_an_error_id_and_logs_the_traceback(
        table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    alice = await table.sign_in(ALICE)
    run = (await alice.post("/api/runs", {"game": "donsol"})).data["run"]

    async def broken(run_id: int) -> None:
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(table.core.runs, "get", broken)
    with caplog.at_level(logging.ERROR, logger="web.errors"):
        answer = await alice.get(f"/api/runs/{run['id']}")
    assert answer.status == 500 and answer.data["error"]["code"] == "unexpected"
    message = answer.data["error"]["message"]
    error_id = re.search(r"error ([0-9a-f]{8})", message)
    assert error_id, message
    assert "fire" not in message and "Traceback" not in json.dumps(answer.data)
    [record] = [r for r in caplog.records if error_id[1] in r.getMessage()]
    assert record.exc_info and "the disk caught fire" in str(record.exc_info[1])
    assert f"/api/runs/{run['id']}" in record.getMessage() and str(ALICE) in record.getMessage()


async def test_discord_unreachable_is_503_in_one_sentence(table: Table) -> None:
    table.oauth.add_user(ALICE, "alice")
    table.oauth.down = True
    answer = await table.request("POST", "/api/token", {"code": table.oauth.code(ALICE)})
    assert answer.status == 503
    assert answer.data["error"]["message"] == (
        "Discord cannot be reached right now; please try again in a minute.")
    fresh = await table.request("GET", "/api/me", headers={"Authorization": "Bearer abc"})
    assert fresh.status == 503
