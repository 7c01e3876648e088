"""The real ``python -m bot`` process as an operator runs it: against nothing at all (Discord
unreachable), and against the local stand-in for Discord of ``bench/_standin`` (discord.py's
own HTTP and gateway code talking to an aiohttp server on 127.0.0.1).

What an operator must see: a refused token is one sentence and exit status 2; while Discord
cannot be reached, one log line per attempt and the bot comes up once it can; SIGTERM or
Ctrl-C at any moment stop it within a few seconds with status 0, no traceback, clicks in
flight answered and the database closed; ``/healthz`` and ``/metrics`` when asked for; the
interactions endpoint when it is set up, refusing what Discord did not sign.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import pytest

from bench._standin.server import Interaction, StandIn
from bot.__main__ import TOKEN_REFUSED
from bot.buttons import MOVE, parse

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5.stand-in-token.kept-out-of-every-log"
SECRET = "daily secret that must never be logged"
#: How long a stop may take: the drain (5 s at most) and the close.
STOP_WITHIN = 8.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Bot:
    """``python -m bot`` in a fresh folder, its log in a file."""

    def __init__(self, folder: Path, base: str, token: str = TOKEN, **env: str) -> None:
        self.folder = folder
        self.log = folder / "bot.log"
        self.database = folder / "data" / "dungeon-deck.sqlite3"
        self.env = {
            "PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": token, "DISCORD_API_BASE": base, "DAILY_SECRET": SECRET,
            "LOG_LEVEL": "DEBUG", **env,
        }
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with self.log.open("wb") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=self.folder, env=self.env,
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log,
            )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    async def wait_for_log(self, pattern: str, count: int = 1, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while len(re.findall(pattern, self.text())) < count:
            assert self.proc is not None
            if self.proc.returncode is not None:
                raise AssertionError(f"the bot exited ({self.proc.returncode}):\n{self.text()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {pattern!r} x{count} in the log:\n{self.text()}")
            await asyncio.sleep(0.05)

    async def signal(self, signum: int) -> tuple[int, float]:
        """Send ``signum``; (exit status, seconds it took to exit)."""
        assert self.proc is not None
        sent = time.monotonic()
        self.proc.send_signal(signum)
        try:
            status = await asyncio.wait_for(self.proc.wait(), 20)
        except TimeoutError:
            self.proc.kill()
            raise AssertionError(f"still running 20 s after {signum}:\n{self.text()}") from None
        return status, time.monotonic() - sent

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


@pytest.fixture
async def spawn(tmp_path: Path) -> AsyncIterator[Any]:
    made: list[Bot] = []

    async def start(base: str, **kwargs: Any) -> Bot:
        bot = Bot(tmp_path, base, **kwargs)
        await bot.start()
        made.append(bot)
        return bot

    yield start
    for bot in made:
        await bot.kill()


@pytest.fixture
async def discord() -> AsyncIterator[StandIn]:
    async with StandIn(token=TOKEN) as standin:
        yield standin


def assert_clean(log: str) -> None:
    """No traceback, and neither the token nor the daily secret, anywhere in the log."""
    assert "Traceback" not in log, log
    assert TOKEN not in log
    assert SECRET not in log


async def answered(record: Interaction, timeout: float = 10.0) -> Interaction:
    await asyncio.wait_for(record.done.wait(), timeout)
    return record


async def play(discord: StandIn, user_id: int, game: str = "donsol") -> int:
    """/play ``game``; the id of the board message."""
    record = await answered(discord.command(
        user_id, "play", [{"name": "game", "type": 3, "value": game}]
    ))
    assert record.message_id is not None, record.text
    return record.message_id


def moves(discord: StandIn, message_id: int) -> list[str]:
    return [
        button["custom_id"]
        for row in discord.messages[message_id]["components"]
        for button in row["components"]
        if parse(button.get("custom_id", "")).kind == MOVE and not button.get("disabled")
    ]


async def live_board(discord: StandIn, user_id: int, board: int) -> int:
    """``board`` while its run goes on; once a move has ended it (the process's deals are
    random: a first click on a Joker ends a Donsol run), the board of a new /play."""
    return board if moves(discord, board) else await play(discord, user_id)


# ----- start-up ------------------------------------------------------------------------------


async def test_a_refused_token_is_one_sentence_and_exit_status_2(spawn, discord):
    bot = await spawn(discord.base_url, token="not.the.right-token")

    assert bot.proc is not None
    status = await asyncio.wait_for(bot.proc.wait(), 30)

    assert status == 2
    log = bot.text()
    assert log.endswith(TOKEN_REFUSED + "\n")
    assert log.count(TOKEN_REFUSED) == 1
    assert "Traceback" not in log and "not.the.right-token" not in log
    assert "Discord cannot be reached" not in log, "a refused token is not retried"


async def test_unreachable_discord_is_one_line_per_attempt_until_sigterm(spawn):
    bot = await spawn(f"http://127.0.0.1:{free_port()}")  # nothing listens there

    await bot.wait_for_log(r"Discord cannot be reached \(attempt \d+", count=2)
    status, took = await bot.signal(signal.SIGTERM)

    assert status == 0
    assert took < STOP_WITHIN
    log = bot.text()
    attempts = [line for line in log.splitlines() if "Discord cannot be reached" in line]
    assert "(attempt 1: ClientConnectorError" in attempts[0]
    assert attempts[0].endswith("trying again in 1 s")
    assert attempts[1].endswith("trying again in 2 s")
    assert "logging in using static token" not in log, "one line per attempt"
    assert "voice will NOT be supported" not in log, "the bot has no voice: no warning"
    assert log.index("Stopping on SIGTERM") < log.index("Stopped cleanly")
    assert_clean(log)


async def test_ctrl_c_during_the_retries_stops_it_cleanly(spawn):
    bot = await spawn(f"http://127.0.0.1:{free_port()}")

    await bot.wait_for_log(r"Discord cannot be reached")
    status, took = await bot.signal(signal.SIGINT)

    assert (status, took < STOP_WITHIN) == (0, True)
    assert_clean(bot.text())
    assert "KeyboardInterrupt" not in bot.text()


async def forward(port: int, target: int) -> asyncio.Server:
    """A TCP relay from ``port`` to ``target`` on 127.0.0.1: "the network comes up"."""

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    return await asyncio.start_server(relay, "127.0.0.1", port)


async def test_a_bot_started_before_the_network_comes_up_with_it(spawn, discord):
    port = free_port()
    bot = await spawn(f"http://127.0.0.1:{port}")
    await bot.wait_for_log(r"Discord cannot be reached \(attempt 2")

    relay = await forward(port, discord.port)  # the network is up
    try:
        await asyncio.wait_for(discord.identified.wait(), 30)
        board = await play(discord, 11)
        assert moves(discord, board), "the board has move buttons"
        status, _ = await bot.signal(signal.SIGTERM)
    finally:
        relay.close()

    assert status == 0
    assert_clean(bot.text())


# ----- serving and stopping ------------------------------------------------------------------


async def test_sigterm_answers_clicks_in_flight_and_closes_the_database(spawn, discord):
    bot = await spawn(discord.base_url)
    await asyncio.wait_for(discord.identified.wait(), 30)
    players = range(21, 41)
    boards = {user: await play(discord, user) for user in players}

    clicks = [discord.click(user, boards[user], moves(discord, boards[user])[0])
              for user in players]
    await asyncio.sleep(0.005)  # the frames are on their way; some are being handled
    status, took = await bot.signal(signal.SIGTERM)

    assert status == 0
    assert took < STOP_WITHIN
    log = bot.text()
    assert_clean(log)
    assert log.index("Stopping on SIGTERM") < log.index("Stopped cleanly")
    # The database was closed cleanly: the last connection's close checkpointed the WAL and
    # removed it.
    assert not Path(f"{bot.database}-wal").exists()
    with contextlib.closing(sqlite3.connect(bot.database)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        played = {run_id: n for run_id, n in db.execute(
            "SELECT run_id, COUNT(*) FROM moves GROUP BY run_id")}
    # Every click the bot took was answered, with its board; none was answered twice. A move
    # in the database was answered (no move is kept without its answer in flight).
    taken = [c for c in clicks if c.answered_at is not None]
    assert all(not c.refused for c in clicks)
    assert all(not c.ephemeral and c.message_id is not None for c in taken)
    runs = {parse(c.data["custom_id"]).run_id for c in taken}
    assert taken, "the bot was serving when the signal came"
    assert set(played) == runs, "the moves kept are exactly those of the answered clicks"


async def test_answers_go_on_kept_connections_and_discord_py_sends_any_other(spawn, discord):
    # A board's answer goes on the bot's kept connections (bot.callbacks), which send
    # discord.py's User-Agent; one that does not come back 2xx is sent again by discord.py's
    # webhook adapter (aiohttp's User-Agent), which rides out the 429 or the 5xx.
    bot = await spawn(discord.base_url)
    await asyncio.wait_for(discord.identified.wait(), 30)
    board = await play(discord, 51)
    records = [await answered(discord.click(51, board, moves(discord, board)[0]))]
    boards = [board]
    for status in (503, 429):
        board = await live_board(discord, 51, board)
        discord.inject(r"^/interactions/\d+/[^/]+/callback$", status)
        records.append(await answered(discord.click(51, board, moves(discord, board)[0])))
        boards.append(board)
    assert [(r.refused, r.message_id) for r in records] == [([], b) for b in boards]
    answers = len(set(boards)) + len(records) + 2  # each /play's, each click's, two again
    for _ in range(100):  # the log line is written once the answer has gone back
        if len(discord.callback_log) >= answers:
            break
        await asyncio.sleep(0.02)
    sent = [(path.split("/")[2], "kept" if agent.startswith("DiscordBot") else "discord.py",
             status) for path, agent, status in discord.callback_log]
    first, second = str(records[1].id), str(records[2].id)
    assert [s for s in sent if s[0] in (first, second)] == [
        (first, "kept", 503), (first, "discord.py", 204),
        (second, "kept", 429), (second, "discord.py", 204)]
    others = [s[1:] for s in sent if s[0] not in (first, second)]
    assert others == [("kept", 204)] * (answers - 4)
    with contextlib.closing(sqlite3.connect(bot.database)) as db:
        assert db.execute("SELECT COUNT(*) FROM moves").fetchone() == (3,)
    # A board with its table picture (a multipart form) goes on the kept connections too,
    # once the picture worker is up.
    pictured, player = None, 51
    for _ in range(60):
        if not moves(discord, board):  # that run is over: another player starts one
            player += 1
            board = await play(discord, player)
        record = await answered(discord.click(player, board, moves(discord, board)[0]))
        if (record.response or {}).get("data", {}).get("attachments"):
            pictured = record
            break
        await asyncio.sleep(0.1)
    assert pictured is not None, "no board came with its picture"
    for _ in range(100):
        if any(path.split("/")[2] == str(pictured.id) for path, _, _ in discord.callback_log):
            break
        await asyncio.sleep(0.02)
    assert [(agent.split(" ")[0], status) for path, agent, status in discord.callback_log
            if path.split("/")[2] == str(pictured.id)] == [("DiscordBot", 204)]
    status, _ = await bot.signal(signal.SIGTERM)
    assert status == 0
    assert_clean(bot.text())


async def test_healthz_and_metrics_on_the_metrics_port(spawn, discord):
    port = free_port()
    bot = await spawn(discord.base_url, METRICS_PORT=str(port))
    await bot.wait_for_log(r"Health and metrics on http://127\.0\.0\.1:\d+/healthz")
    async with aiohttp.ClientSession() as http:
        await asyncio.wait_for(discord.identified.wait(), 30)
        seen = []
        for _ in range(100):  # READY reaches the bot a moment after the stand-in sent it
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                seen.append((response.status, await response.text()))
            if seen[-1][0] == 200:
                break
            await asyncio.sleep(0.05)
        assert seen[-1] == (200, "ok\n")
        assert set(seen[:-1]) <= {(503, "connecting\n")}

        await play(discord, 61, "clear")
        async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
            assert response.status == 200
            text = await response.text()
    db_count = re.search(r"^dungeon_deck_db_seconds_count (\S+)$", text, re.MULTILINE)
    assert db_count and float(db_count[1]) >= 2, "the /play's transactions were timed"
    for name in ("dungeon_deck_clicks_total", "dungeon_deck_click_seconds_bucket",
                 "dungeon_deck_db_seconds_bucket", "dungeon_deck_gateway_latency_seconds",
                 "process_cpu_seconds_total"):
        assert name in text
    status, _ = await bot.signal(signal.SIGTERM)
    assert status == 0
    assert_clean(bot.text())


async def test_a_taken_metrics_port_is_one_sentence(spawn, discord):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = await spawn(discord.base_url, METRICS_PORT=str(port))
        assert bot.proc is not None
        status = await asyncio.wait_for(bot.proc.wait(), 30)
    assert status == 2
    assert bot.text().endswith(f"METRICS_PORT {port} cannot be used on 127.0.0.1 "
                               "(address already in use).\n")
    assert "Traceback" not in bot.text()


async def test_a_generated_daily_secret_stays_out_of_the_debug_log(spawn, discord):
    bot = await spawn(discord.base_url, DAILY_SECRET="")  # generated and kept on first use
    await asyncio.wait_for(discord.identified.wait(), 30)
    await play(discord, 51, "tomb")
    status, _ = await bot.signal(signal.SIGTERM)
    assert status == 0

    with contextlib.closing(sqlite3.connect(bot.database)) as db:
        (secret,) = db.execute("SELECT value FROM meta WHERE key = 'daily_secret'").fetchone()
    log = bot.text()
    assert len(secret) >= 32
    assert "[DEBUG   ]" in log
    assert secret not in log
    assert_clean(log)


async def test_sync_pushes_the_commands_and_exits(tmp_path, discord):
    bot = Bot(tmp_path, discord.base_url)
    assert not discord.commands
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "sync", cwd=tmp_path, env=bot.env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(proc.communicate(), 30)

    assert proc.returncode == 0, output.decode()
    assert {"play", "games", "rules", "help"} <= set(discord.commands)
    assert b"Synced" in output and b"Traceback" not in output
    assert not discord.identified.is_set(), "sync does not connect to the gateway"


async def test_web_port_serves_the_activity_from_the_bot_process(spawn, discord):
    """With WEB_PORT set the bot process serves the Activity on its own core: a player signs
    in through Discord's OAuth2 (the stand-in) with the bot's application id as the client
    id, plays a move in the API, and the run is the one the bot's database holds; SIGTERM
    stops both cleanly."""
    from bench._standin import payloads

    discord.oauth.client_id = str(payloads.APPLICATION_ID)  # no DISCORD_CLIENT_ID: the bot's
    discord.oauth.add_user(71, "wendy")
    port = free_port()
    bot = await spawn(discord.base_url, WEB_PORT=str(port),
                      DISCORD_CLIENT_SECRET=discord.oauth.client_secret)
    await bot.wait_for_log(rf"the Activity is served on http://127\.0\.0\.1:{port}")
    site = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{site}/api/config") as response:
            assert (await response.json())["client_id"] == str(payloads.APPLICATION_ID)
        async with http.post(f"{site}/api/token",
                             json={"code": discord.oauth.code(71)}) as response:
            assert response.status == 200, await response.text()
            token = (await response.json())["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        async with http.post(f"{site}/api/runs", headers=headers,
                             json={"game": "clear", "kind": "practice"}) as response:
            started = await response.json()
        action = started["actions"][0]["action"]
        async with http.post(f"{site}/api/runs/{started['run']['id']}/move", headers=headers,
                             json={"version": started["run"]["version"],
                                   "action": action}) as response:
            assert response.status == 200, await response.text()
            moved = await response.json()
    assert moved["run"]["moves"] == 1
    with contextlib.closing(sqlite3.connect(bot.database)) as db:
        stored = db.execute("SELECT owner_id, game FROM runs WHERE id = ?",
                            (started["run"]["id"],)).fetchone()
        log = db.execute("SELECT action FROM moves WHERE run_id = ?",
                         (started["run"]["id"],)).fetchall()
    assert stored == (71, "clear") and log == [(action,)]
    status, _ = await bot.signal(signal.SIGTERM)
    assert status == 0
    assert "the Activity is no longer served" in bot.text()
    assert_clean(bot.text())


# ----- the interactions endpoint -------------------------------------------------------------


def stored_moves(database: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        return int(db.execute("SELECT COUNT(*) FROM moves").fetchone()[0])


async def test_the_interactions_endpoint_answers_inline_and_refuses_what_discord_did_not_send(
        spawn):
    """With INTERACTIONS_PUBLIC_KEY and INTERACTIONS_PORT the bot answers Discord's signed
    POSTs: the portal's PING, a /play and a click answered in the HTTP response, the move
    stored. A click signed by another key, or a signed one sent again, is refused and changes
    nothing; SIGTERM stops it all cleanly."""
    from nacl.signing import SigningKey

    from bench._standin import payloads as p

    async with StandIn(token=TOKEN, delivery="http") as discord:
        port = free_port()
        bot = await spawn(discord.base_url, INTERACTIONS_PUBLIC_KEY=discord.public_key,
                          INTERACTIONS_PORT=str(port))
        discord.endpoint = f"http://127.0.0.1:{port}/interactions"
        await bot.wait_for_log(rf"Interactions endpoint on http://127\.0\.0\.1:{port}/")
        await asyncio.wait_for(discord.wait_connected(), 30)
        assert await discord.ping() == (200, {"type": 1})
        board = await play(discord, 81)
        click = await answered(discord.click(81, board, moves(discord, board)[0]))
        assert click.http_status == 200 and click.response["type"] == p.UPDATE_MESSAGE
        assert not click.refused and stored_moves(bot.database) == 1
        callbacks = [r for r in discord.rest_log if r[2].endswith("/callback")]
        assert callbacks == []  # every answer came in the HTTP response
        board = await live_board(discord, 81, board)

        # A real move on the live board, as Discord would send it, but not by Discord.
        payload = p.interaction(9_100_000_000_000_000_001, "itoken-forged", p.MESSAGE_COMPONENT,
                                81, {"custom_id": moves(discord, board)[0],
                                     "component_type": 2}, discord.messages[board])
        body = orjson.dumps(payload)
        forger = SigningKey.generate()
        forged = discord.signed(body)
        forged["X-Signature-Ed25519"] = forger.sign(
            forged["X-Signature-Timestamp"].encode() + body).signature.hex()
        before = (dict(discord.messages[board]), len(discord.rest_log))
        async with aiohttp.ClientSession() as http:
            async with http.post(discord.endpoint, data=body, headers=forged) as response:
                assert response.status == 401
            # Signed by Discord's key (the stand-in's), accepted once; the same request again
            # is refused.
            signed = discord.signed(body)
            async with http.post(discord.endpoint, data=body, headers=signed) as response:
                assert response.status == 200
                assert (await response.json())["type"] == p.UPDATE_MESSAGE
            assert stored_moves(bot.database) == 2
            async with http.post(discord.endpoint, data=body, headers=signed) as response:
                assert response.status == 401
        await asyncio.sleep(0.2)
        assert stored_moves(bot.database) == 2
        assert discord.messages[board] == before[0]  # no answer reached the board
        assert len(discord.rest_log) == before[1]  # nor any call of the bot's
        status, _ = await bot.signal(signal.SIGTERM)
    assert status == 0
    assert_clean(bot.text())


async def test_a_taken_interactions_port_is_one_sentence(spawn, discord):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = await spawn(discord.base_url, INTERACTIONS_PUBLIC_KEY="ab" * 32,
                          INTERACTIONS_PORT=str(port))
        assert bot.proc is not None
        status = await asyncio.wait_for(bot.proc.wait(), 30)
    assert status == 2
    assert bot.text().endswith(f"INTERACTIONS_PORT {port} cannot be used on 127.0.0.1 "
                               "(address already in use).\n")
    assert "Traceback" not in bot.text()


async def test_a_malformed_interactions_key_stops_the_bot_with_one_sentence(spawn, discord):
    bot = await spawn(discord.base_url, INTERACTIONS_PUBLIC_KEY="not-a-key",
                      INTERACTIONS_PORT="8443")
    assert bot.proc is not None
    status = await asyncio.wait_for(bot.proc.wait(), 30)
    assert status == 2
    assert bot.text().strip().splitlines() == [
        "INTERACTIONS_PUBLIC_KEY must be the application's Public Key from the Developer "
        "Portal (General Information): 64 hexadecimal digits, not 'not-a-key'."]


async def test_sigterm_over_the_endpoint_answers_the_clicks_it_took_and_refuses_new_ones(spawn):
    async with StandIn(token=TOKEN, delivery="http") as discord:
        port = free_port()
        bot = await spawn(discord.base_url, INTERACTIONS_PUBLIC_KEY=discord.public_key,
                          INTERACTIONS_PORT=str(port))
        discord.endpoint = f"http://127.0.0.1:{port}/interactions"
        await asyncio.wait_for(discord.wait_connected(), 30)
        await bot.wait_for_log(r"Interactions endpoint on")
        players = range(21, 41)
        boards = {user: await play(discord, user) for user in players}
        clicks = [discord.click(user, boards[user], moves(discord, boards[user])[0])
                  for user in players]
        # The signal comes once the bot is answering them: the first answered, the others
        # on their way or being handled.
        for _ in range(5000):
            if any(c.answered_at is not None for c in clicks):
                break
            await asyncio.sleep(0.001)
        status, took = await bot.signal(signal.SIGTERM)
        for click in clicks:
            if click.posting is not None:
                await asyncio.wait({click.posting}, timeout=5)
    assert status == 0 and took < STOP_WITHIN
    assert_clean(bot.text())
    with contextlib.closing(sqlite3.connect(bot.database)) as db:
        played = {run_id for (run_id,) in db.execute("SELECT DISTINCT run_id FROM moves")}
    taken = [c for c in clicks if c.answered_at is not None]
    assert taken, "the bot was serving when the signal came"
    assert all(c.http_status == 200 and not c.refused for c in taken)
    # The others were refused (503) or found nobody listening: not answered, nothing kept.
    assert all(c.http_status in (None, 503) for c in clicks if c.answered_at is None)
    assert played == {parse(c.data["custom_id"]).run_id for c in taken}
