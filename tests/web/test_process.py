"""The web adapter's settings, its process (``python -m web``: one sentence and exit 2 for a
missing setting; serves, then stops on SIGTERM), the token cache's bounds, and the client
secret kept out of every log line."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
import os
import signal
import socket
import sys
from pathlib import Path

import aiohttp
import pytest

from bench._standin.oauth import CLIENT_ID, CLIENT_SECRET, OAuthStandIn
from core.environment import ConfigError
from core.redact import Redact
from web import serve
from web.auth import Auth, SignedOut
from web.config import DISCORD_API, WebConfig

ROOT = Path(__file__).resolve().parents[2]


def test_settings_from_the_environment() -> None:
    config = WebConfig.from_env({"WEB_PORT": "8087", "DISCORD_CLIENT_ID": "123",
                                 "DISCORD_CLIENT_SECRET": "s3cret", "DATABASE_PATH": "x.db",
                                 "DAILY_SECRET": "d"})
    assert config.enabled and config.port == 8087 and config.host == "127.0.0.1"
    assert config.discord_api == DISCORD_API
    assert str(config.database.database) == "x.db"
    assert "s3cret" not in repr(config)
    config.require()
    off = WebConfig.from_env({})
    assert not off.enabled
    stand_in = WebConfig.from_env({"DISCORD_API_BASE": "http://127.0.0.1:9999/"})
    assert stand_in.discord_api == "http://127.0.0.1:9999/api/v10"


@pytest.mark.parametrize(("env", "says"), [
    ({"WEB_PORT": "eighty"}, "WEB_PORT must be a port number"),
    ({"WEB_PORT": "70000"}, "WEB_PORT must be a port number"),
    ({"DISCORD_CLIENT_ID": "my-app"}, "DISCORD_CLIENT_ID must be the application's id"),
    ({"DISCORD_API_BASE": "https://example.com"}, "DISCORD_API_BASE must be a local stand-in"),
    ({"DATABASE_URL": "mysql://x"}, "DATABASE_URL must be a PostgreSQL URL"),
    ({"WEB_HOST": "http://x/"}, "WEB_HOST must be an address"),
])
def test_a_bad_setting_is_one_sentence(env: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError) as raised:
        WebConfig.from_env(env)
    assert str(raised.value).startswith(says) and str(raised.value).count(". ") == 0


@pytest.mark.parametrize(("env", "says"), [
    ({}, "Set WEB_PORT"),
    ({"WEB_PORT": "8087"}, "Set DISCORD_CLIENT_ID"),
    ({"WEB_PORT": "8087", "DISCORD_CLIENT_ID": "1"}, "Set DISCORD_CLIENT_SECRET"),
])
async def test_python_m_web_exits_2_with_one_sentence(tmp_path: Path, env: dict[str, str],
                                                      says: str) -> None:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("WEB_", "DISCORD_", "DATABASE_", "DAILY_"))}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "web", cwd=tmp_path, env=clean | env | {"PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    assert err.decode().startswith(says) and len(err.decode().strip().splitlines()) == 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_python_m_web_serves_then_stops_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    async with OAuthStandIn.serve() as oauth:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_", "DISCORD_"))}
        env |= {"WEB_PORT": str(port), "DISCORD_CLIENT_ID": CLIENT_ID,
                "DISCORD_CLIENT_SECRET": CLIENT_SECRET,
                "DISCORD_API_BASE": oauth.api.removesuffix("/api/v10"),
                "DATABASE_PATH": str(tmp_path / "data" / "web.sqlite3"),
                "PYTHONPATH": str(ROOT)}
        env.pop("DATABASE_URL", None)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "web", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            oauth.add_user(5, "eve")
            async with aiohttp.ClientSession() as http:
                for _ in range(100):
                    try:
                        async with http.get(f"http://127.0.0.1:{port}/api/health") as r:
                            assert r.status == 200
                            break
                    except aiohttp.ClientConnectionError:
                        await asyncio.sleep(0.1)
                else:
                    raise AssertionError("the web process never listened")
                async with http.post(f"http://127.0.0.1:{port}/api/token",
                                     json={"code": oauth.code(5)}) as r:
                    token = (await r.json())["access_token"]
                async with http.post(f"http://127.0.0.1:{port}/api/runs",
                                     json={"game": "tomb"},
                                     headers={"Authorization": f"Bearer {token}"}) as r:
                    assert r.status == 200
        finally:
            process.send_signal(signal.SIGTERM)
            _, err = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 0, err.decode()
        log = err.decode()
        assert "the Activity is served on http://127.0.0.1:" in log
        assert CLIENT_SECRET not in log
        assert (tmp_path / "data" / "web.sqlite3").exists()


def test_the_client_secret_never_reaches_the_log() -> None:
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.addFilter(Redact(["bot-token"]))  # the bot's log, set up before the web starts
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        config = WebConfig(port=0, client_id=CLIENT_ID, client_secret=CLIENT_SECRET)
        serve.redact_secrets(config)  # as start() does in the bot's process
        try:
            raise RuntimeError(f"exchange failed: client_secret={CLIENT_SECRET}")
        except RuntimeError:
            logging.getLogger("web.auth").exception("posting %s", CLIENT_SECRET)
    finally:
        root.removeHandler(handler)
    assert "exchange failed" in written.getvalue()
    assert CLIENT_SECRET not in written.getvalue()
    assert "[redacted]" in written.getvalue()


async def test_the_token_cache_is_bounded_and_drops_refused_tokens() -> None:
    async with OAuthStandIn.serve() as oauth:
        auth = Auth(oauth.api, CLIENT_ID, CLIENT_SECRET, cache_size=3)
        try:
            tokens = []
            for n in range(1, 6):
                oauth.add_user(n, f"u{n}")
                tokens.append(oauth.token(n))
                assert (await auth.user(tokens[-1])).id == n
            assert len(auth._cache) == 3
            asked = len(oauth.requests)
            await auth.user(tokens[-1])  # cached: Discord not asked
            assert len(oauth.requests) == asked
            await auth.user(tokens[0])  # dropped from the cache: asked again
            assert len(oauth.requests) == asked + 2
            expiring = Auth(oauth.api, CLIENT_ID, CLIENT_SECRET, cache_seconds=0)
            try:
                await expiring.user(tokens[1])
                oauth.expire(tokens[1])
                with pytest.raises(SignedOut):
                    await expiring.user(tokens[1])
            finally:
                await expiring.close()
            for forged in ("", "x" * 500, "bad token\n", "é"):
                with pytest.raises(SignedOut):
                    await auth.user(forged)
        finally:
            await auth.close()


async def test_the_bench_stand_in_hosts_the_oauth_endpoints(tmp_path: Path) -> None:
    from bench._standin.server import StandIn
    from core import Core

    async with StandIn() as discord:
        discord.oauth.add_user(7, "zed", locale="pt-BR")
        config = dataclasses.replace(WebConfig.from_env({
            "WEB_PORT": "8087", "DISCORD_CLIENT_ID": CLIENT_ID,
            "DISCORD_CLIENT_SECRET": CLIENT_SECRET, "DISCORD_API_BASE": discord.base_url}),
            port=0)  # a free port
        core = await Core.open(tmp_path / "web.sqlite3")
        runner = await serve.start(core, config)
        base = f"http://127.0.0.1:{serve.port_of(runner)}"
        try:
            async with aiohttp.ClientSession() as http:
                async with http.post(base + "/api/token",
                                     json={"code": discord.oauth.code(7)}) as r:
                    token = (await r.json())["access_token"]
                async with http.get(base + "/api/me",
                                    headers={"Authorization": f"Bearer {token}"}) as r:
                    me = await r.json()
        finally:
            await serve.stop(runner)
            await core.close()
        assert me["user"]["name"] == "zed" and me["language"] == "pt-BR"
        assert discord.unexpected == []


async def test_python_m_web_says_when_its_port_is_taken(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_", "DISCORD_"))}
        env |= {"WEB_PORT": str(port), "DISCORD_CLIENT_ID": CLIENT_ID,
                "DISCORD_CLIENT_SECRET": CLIENT_SECRET,
                "DATABASE_PATH": str(tmp_path / "web.sqlite3"), "PYTHONPATH": str(ROOT)}
        env.pop("DATABASE_URL", None)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "web", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        _, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 1
    last = err.decode().strip().splitlines()[-1]
    assert last.startswith(f"The Activity cannot listen on 127.0.0.1:{port}: ")
    assert "Traceback" not in err.decode()


async def test_an_exchanged_token_is_refused_once_its_own_lifetime_ends() -> None:
    # Discord's token outlives the cache hour by default; a short one must not be honoured
    # from the cache after it expired, nor sent to Discord again.
    async with OAuthStandIn.serve() as oauth:
        oauth.add_user(3, "cy")
        now = [1000.0]
        auth = Auth(oauth.api, CLIENT_ID, CLIENT_SECRET, clock=lambda: now[0])
        try:
            token, lifetime = await auth.exchange(oauth.code(3))
            assert (await auth.user(token)).id == 3
            now[0] += lifetime - 1
            assert (await auth.user(token)).id == 3  # still alive: asked again after the hour
            asked = len(oauth.requests)
            now[0] += 2
            with pytest.raises(SignedOut):
                await auth.user(token)
            assert len(oauth.requests) == asked  # refused here, Discord not asked
        finally:
            await auth.close()
