"""The bot under test as a separate process, started against a stand-in for Discord.

``BotProcess`` starts a command (``python -m bot`` by default, unmodified) with the settings
pointing it at the stand-in and a database file, waits until its gateway session is ready,
and can kill it (SIGKILL), stop it (SIGTERM), and read its CPU time from ``/proc``. With a
stand-in that delivers interactions over HTTP, the bot is also given the stand-in's public key
and a port for its interactions endpoint, which the stand-in PINGs once the bot is up (as the
Developer Portal does when the URL is saved).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from pathlib import Path

from bench._standin.server import StandIn

ROOT = Path(__file__).resolve().parents[2]
PROJECT_BOT = (sys.executable, "-m", "bot")
MINIMAL_BOT = (sys.executable, "-m", "bench._minimal_bot")
_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    """User + system CPU seconds the process ``pid`` has used so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime (fields 14, 15)


class Child:
    """A process a bench starts (``proc``, its output in ``log``): its CPU, its log, and how
    it is stopped."""

    log: Path
    proc: asyncio.subprocess.Process | None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def cpu_seconds(self) -> float:
        """User + system CPU time the process has used so far."""
        return cpu_of(self.pid)

    async def kill(self) -> None:
        """SIGKILL: no cleanup of any kind, as a power cut or the OOM killer would."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()

    async def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM, then SIGKILL if it has not exited after ``timeout``; the exit status."""
        if self.proc is None:
            return None
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                await self.kill()
        return self.proc.returncode

    def log_tail(self, lines: int = 25) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def log_text(self) -> str:
        with contextlib.suppress(FileNotFoundError):
            return self.log.read_text(errors="replace")
        return ""


class BotProcess(Child):
    """One bot process at a time; ``start`` again after ``kill`` restarts it on the same file."""

    def __init__(self, discord: StandIn, database: Path, log: Path,
                 command: tuple[str, ...] = PROJECT_BOT, log_level: str = "INFO",
                 root: Path = ROOT) -> None:
        self.discord = discord
        self.database = database
        self.log = log
        self.command = command
        self.log_level = log_level
        self.root = root  # the checkout the bot runs from (its working directory)
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        #: The port of the bot's interactions endpoint (kept across restarts), over HTTP.
        self.interactions_port = free_port() if discord.delivery == "http" else None

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_"))}
        # Every setting explicit, so a developer's .env cannot change what is measured.
        env |= {"DISCORD_TOKEN": self.discord.token, "DISCORD_API_BASE": self.discord.base_url,
                "DATABASE_PATH": str(self.database), "DAILY_SECRET": "stand-in daily secret",
                "DEV_GUILD_ID": "", "LOG_LEVEL": self.log_level, "METRICS_PORT": "",
                "DATABASE_URL": "", "DATABASE_READ_URL": "", "SHARD_COUNT": "", "SHARD_IDS": "",
                # A minute after start the par solver would take a core for minutes (a fresh
                # database has three closed days to solve), in the middle of what is
                # measured; a bot that has run a while has nothing left to solve but once a
                # day. bench/pars.py measures the solver.
                "PAR_SOLVER": "off",
                "INTERACTIONS_PUBLIC_KEY": "", "INTERACTIONS_PORT": "", "INTERACTIONS_HOST": "",
                "PYTHONUNBUFFERED": "1"}
        if self.interactions_port is not None:
            env |= {"INTERACTIONS_PUBLIC_KEY": self.discord.public_key,
                    "INTERACTIONS_PORT": str(self.interactions_port),
                    "INTERACTIONS_HOST": "127.0.0.1"}
        return env

    async def start(self, timeout: float = 30.0) -> None:
        """Start the process and wait until its gateway session is ready (and, over HTTP,
        its endpoint answers a PING)."""
        sessions = self.discord.sessions
        if self.interactions_port is not None:
            self.discord.endpoint = f"http://127.0.0.1:{self.interactions_port}/interactions"
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                *self.command, cwd=self.root, env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)
        self.starts += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (self.discord.sessions > sessions and self.discord.connected):
            if self.proc.returncode is not None:
                raise RuntimeError(f"the bot exited with {self.proc.returncode}; its log ends:\n"
                                   + self.log_tail())
            if loop.time() > deadline:
                raise TimeoutError(f"the bot did not connect in {timeout} s; its log ends:\n"
                                   + self.log_tail())
            await asyncio.sleep(0.02)
        if self.interactions_port is not None:
            answer = await self.discord.ping()
            if answer != (200, {"type": 1}):
                raise RuntimeError(f"the bot's interactions endpoint answered a PING with "
                                   f"{answer}; its log ends:\n" + self.log_tail())


def free_port() -> int:
    """A port nothing listens on now, on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
