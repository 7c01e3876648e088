"""The Activity's API as a client sees it, through a real server, a real SQLite file and the
OAuth stand-in: sign-in, practice and daily runs, moves with the board's version, and what
is refused (stale boards, other players' runs, forged and expired tokens) with nothing
written."""

from __future__ import annotations

from language import catalogs
from tests.web.conftest import Table

ALICE, BOB = 1_000_000_000_000_001, 1_000_000_000_000_002
#: A Donsol deal whose first room is J♠ 6♦ 7♣ 4♠: no first move ends the run.
SEEDED = 1


async def test_sign_in_gives_discords_token_and_me_names_the_user(table: Table) -> None:
    alice = await table.sign_in(ALICE, "alice", global_name="Alice A.")
    me = await alice.get("/api/me")
    assert me.status == 200
    assert me.data["user"] == {"id": str(ALICE), "name": "Alice A."}
    assert me.data["language"] == "en"
    assert me.data["words"]["undo"] == "Undo"
    assert [g["key"] for g in me.data["games"]] == ["donsol", "tomb", "clear", "scoundrel"]
    daily = me.data["games"][0]["daily"]
    assert daily["day"] == "2026-12-01" and daily["played"] is None
    assert len(daily["commitment"]) >= 16
    # The token goes to Discord once per cache lifetime, not once per call.
    await alice.get("/api/me")
    assert table.oauth.requests.count(("GET", "/api/v10/users/@me")) == 1


async def test_a_used_or_unknown_code_is_refused(table: Table) -> None:
    table.oauth.add_user(ALICE, "alice")
    code = table.oauth.code(ALICE)
    assert (await table.request("POST", "/api/token", {"code": code})).status == 200
    again = await table.request("POST", "/api/token", {"code": code})
    assert again.status == 401 and again.error["code"] == "signed_out"
    assert (await table.request("POST", "/api/token", {"code": 12})).status == 400


async def test_practice_starts_then_resumes_and_moves_with_the_version(table: Table) -> None:
    alice = await table.sign_in(ALICE)
    fresh = await alice.post("/api/runs", {"game": "tomb", "kind": "practice"})
    assert fresh.status == 200 and fresh.data["run"]["moves"] == 0  # dealt anew
    await table.core.runs.start(ALICE, "donsol", seed=SEEDED)  # its first move is not the last
    first = await alice.post("/api/runs", {"game": "donsol", "kind": "practice"})
    assert first.status == 200
    run = first.data["run"]
    assert run["kind"] == "practice" and run["status"] == "playing" and run["version"] >= 0
    assert first.data["can"] == {"undo": False, "resign": True, "hint": True}
    action = first.data["actions"][0]
    assert action["label"] and action["cards"] == [action["action"].split()[1]]

    again = await alice.post("/api/runs", {"game": "donsol", "variant": "normal",
                                           "kind": "practice"})
    assert again.data["run"]["id"] == run["id"]  # resumed, not dealt anew

    moved = await alice.post(f"/api/runs/{run['id']}/move",
                             {"version": run["version"], "action": action["action"]})
    assert moved.status == 200
    assert moved.data["run"]["version"] == run["version"] + 1
    assert moved.data["run"]["moves"] == 1
    assert moved.data["last"] == {"action": action["action"], "cards": action["cards"]}
    assert moved.data["can"]["undo"] is True
    # Read back: the same run, and its last move known from the log.
    read = await alice.get(f"/api/runs/{run['id']}")
    assert read.data["run"]["version"] == run["version"] + 1
    assert read.data["last"]["action"] == action["action"]

    undone = await alice.post(f"/api/runs/{run['id']}/undo",
                              {"version": moved.data["run"]["version"]})
    assert undone.status == 200 and undone.data["run"]["moves"] == 0
    assert table.count("moves") == 0


async def test_a_stale_move_is_refused_with_the_run_as_it_is(table: Table) -> None:
    alice = await table.sign_in(ALICE)
    start = (await alice.post("/api/runs", {"game": "scoundrel"})).data
    run_id, version = start["run"]["id"], start["run"]["version"]
    first, second = start["actions"][0]["action"], start["actions"][1]["action"]
    assert (await alice.post(f"/api/runs/{run_id}/move",
                             {"version": version, "action": first})).status == 200
    before = table.snapshot()
    stale = await alice.post(f"/api/runs/{run_id}/move", {"version": version, "action": second})
    assert stale.status == 409 and stale.error["code"] == "stale"
    assert stale.error["message"] == "That board was out of date; here is the current one."
    assert stale.error["run"]["run"]["version"] == version + 1
    assert stale.error["run"]["last"]["action"] == first
    assert table.snapshot() == before


async def test_another_players_token_cannot_touch_the_run(table: Table) -> None:
    alice = await table.sign_in(ALICE)
    bob = await table.sign_in(BOB)
    start = (await alice.post("/api/runs", {"game": "donsol"})).data
    run_id, version = start["run"]["id"], start["run"]["version"]
    action = start["actions"][0]["action"]
    before = table.snapshot()
    for path, body in ((f"/api/runs/{run_id}/move", {"version": version, "action": action}),
                       (f"/api/runs/{run_id}/resign", {"version": version}),
                       (f"/api/runs/{run_id}/undo", {"version": version}),
                       (f"/api/runs/{run_id}/hint", {"version": version})):
        answer = await bob.post(path, body)
        assert answer.status == 403, (path, answer.data)
        assert answer.error["code"] == "not_your_run" and "run" not in answer.error
    looked = await bob.get(f"/api/runs/{run_id}")
    assert looked.status == 403 and "run" not in looked.error
    assert table.snapshot() == before


async def test_forged_and_expired_tokens_get_401_and_change_nothing(table: Table) -> None:
    alice = await table.sign_in(ALICE)
    start = (await alice.post("/api/runs", {"game": "donsol"})).data
    run_id, version = start["run"]["id"], start["run"]["version"]
    move = {"version": version, "action": start["actions"][0]["action"]}
    before = table.snapshot()
    forged = await alice.post(f"/api/runs/{run_id}/move", move, token="forged.token")
    assert forged.status == 401 and forged.error["code"] == "signed_out"
    none = await table.request("POST", f"/api/runs/{run_id}/move", move)
    assert none.status == 401
    # Expired at Discord: a fresh server (nothing cached) asks Discord and is refused.
    later = await table.sign_in(BOB)
    table.oauth.expire(later.token)
    expired = await later.post("/api/runs", {"game": "donsol"})
    assert expired.status == 401 and expired.error["code"] == "signed_out"
    assert table.snapshot() == before


async def test_a_daily_is_dealt_once_and_resumed(table: Table) -> None:
    alice = await table.sign_in(ALICE, "alice")
    first = await alice.post("/api/runs", {"game": "tomb", "kind": "daily"})
    assert first.status == 200
    run = first.data["run"]
    assert run["kind"] == "daily" and run["day"] == "2026-12-01" and run["number"] >= 1
    assert first.data["can"] == {"undo": False, "resign": True, "hint": False}
    again = await alice.post("/api/runs", {"game": "tomb", "kind": "daily"})
    assert again.data["run"]["id"] == run["id"]
    me = await alice.get("/api/me")
    assert next(g for g in me.data["games"] if g["key"] == "tomb")["daily"]["played"] == run["id"]
    assert [r["id"] for r in me.data["runs"]] == [run["id"]]
    hint = await alice.post(f"/api/runs/{run['id']}/hint", {"version": run["version"]})
    assert hint.status == 422 and hint.error["code"] == "refused"
    undo = await alice.post(f"/api/runs/{run['id']}/undo", {"version": run["version"]})
    assert undo.status == 422 and undo.error["message"].startswith("Only practice runs")
    resigned = await alice.post(f"/api/runs/{run['id']}/resign", {"version": run["version"]})
    assert resigned.data["run"]["status"] == "resigned"
    played = await alice.post("/api/runs", {"game": "tomb", "kind": "daily"})
    assert played.status == 409 and played.error["code"] == "already_played"
    assert played.error["run"]["run"]["id"] == run["id"]


async def test_refusals_speak_the_users_discord_language(table: Table) -> None:
    french = catalogs().languages["fr"]
    alice = await table.sign_in(ALICE, locale="fr")
    me = await alice.get("/api/me")
    assert me.data["language"] == "fr"
    assert me.data["words"]["undo"] == french.gettext("Undo")
    # Every card named in words for screen readers, in French.
    assert len(me.data["cards"]) == 54
    assert me.data["cards"]["QS"] == "Dame de pique" and me.data["cards"]["RJ"] == "joker rouge"
    await table.core.runs.start(ALICE, "donsol", seed=SEEDED)  # its first move is not the last
    start = (await alice.post("/api/runs", {"game": "donsol"})).data
    assert start["run"]["prompt"] == french.render(
        (await table.core.runs.get(start["run"]["id"])).view["prompt"])
    run_id, version = start["run"]["id"], start["run"]["version"]
    await alice.post(f"/api/runs/{run_id}/move",
                     {"version": version, "action": start["actions"][0]["action"]})
    stale = await alice.post(f"/api/runs/{run_id}/resign", {"version": version})
    expected = french.gettext("That board was out of date; here is the current one.")
    assert expected != "That board was out of date; here is the current one."
    assert stale.error["message"] == expected


async def test_the_preferences_language_wins_over_discords(table: Table) -> None:
    alice = await table.sign_in(ALICE, locale="fr")
    await table.core.settings.set_player(ALICE, "language", "de")
    me = await alice.get("/api/me")
    assert me.data["language"] == "de"
    assert me.data["words"]["undo"] == catalogs().languages["de"].gettext("Undo")


async def test_the_guild_header_counts_only_for_a_member(table: Table) -> None:
    member = await table.sign_in(ALICE, guilds=[42])
    member.guild = 42
    assert (await member.get("/api/me")).data["guild"] == "42"
    run = (await member.post("/api/runs", {"game": "donsol"})).data["run"]
    assert (await table.core.runs.get(run["id"])).guild_id == 42
    board = await member.get("/api/boards/donsol?scope=server")
    assert board.status == 200 and board.data["scope"] == "server"

    stranger = await table.sign_in(BOB, guilds=[7])
    stranger.guild = 42
    assert (await stranger.get("/api/me")).data["guild"] is None
    run = (await stranger.post("/api/runs", {"game": "donsol"})).data["run"]
    assert (await table.core.runs.get(run["id"])).guild_id is None
    refused = await stranger.get("/api/boards/donsol?scope=server")
    assert refused.status == 403 and refused.error["code"] == "not_a_member"


async def test_me_reads_every_games_daily_in_one_read(table: Table, monkeypatch) -> None:
    alice = await table.sign_in(ALICE, "alice")
    daily = (await alice.post("/api/runs", {"game": "clear", "kind": "daily"})).data["run"]
    store = table.core.store
    reads: list[str] = []
    real = store.read

    async def counted(fn, *args):
        reads.append(fn.__name__)
        return await real(fn, *args)

    monkeypatch.setattr(store, "read", counted)
    me = await alice.get("/api/me")
    played = {g["key"]: g["daily"]["played"] for g in me.data["games"]}
    assert played == {"donsol": None, "tomb": None, "clear": daily["id"], "scoundrel": None}
    assert reads.count("_daily_runs_tx") == 1
