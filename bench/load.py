"""Load: the real bot process against a local stand-in for Discord, with hundreds of players.

``python -m bot`` runs unmodified, pointed by ``DISCORD_API_BASE`` at the stand-in
(``bench/_standin``): discord.py's own HTTP, gateway and rate-limit code is part of what is
measured, as in production. Players start runs with ``/play`` (and ``/daily`` when the bot
has it) and click move buttons read off their boards until each run ends; about 5% of clicks
are on an older copy of the board, by someone else, or with a forged id. Latency is the time
from the INTERACTION_CREATE frame sent to the interaction's callback received.

Subjects, measured in the same run: the project's bot with its interactions on the gateway
(``project``), the same bot receiving them on its interactions endpoint (``http``: signed POSTs,
the answer in the HTTP response; ``bot/endpoint.py``), and the minimal bot
(``bench/_minimal_bot.py``, two buttons and one durable SQLite write per click, on the gateway).
With ``--minimal-pictures``, also the minimal bot with a picture on every board (``mini-pic``:
drawn in a worker process reached over a socket pair, as the project's table pictures are):
what attaching a picture costs a bot that does nothing else (``--minimal-pictures constant``:
one picture drawn once and sent every time, the picture's way to Discord without its drawing).
``--transport gateway|http|both`` chooses the project's (default both). Over HTTP, latency runs
from the POST sent to its answer received (or to the callback, when the answer is 202).

Phases:

- paced: every player clicks about once a second, all three games mixed; the bots run at
  once, each against its own stand-in, and the phase goes from one to the next in rounds
  (the order turning each round), so a change in the machine's background load hits all
  alike;
- back-to-back: every player clicks as soon as the last click is answered (the most clicks
  per second one process sustains), one game at a time, with the bot's CPU time per click
  read from ``/proc/<pid>/stat``; with ``--burst-rounds N`` in N rounds alternating between
  the bots, reported round by round (median, range, ratios per game: http / project, and
  each / the minimal bot).

Afterwards: every interaction got exactly one answer, every promised move is stored, every
run replays to its stored state, ``PRAGMA integrity_check`` is ok, and the bot logged no
error. With ``--profile``, py-spy samples the bot during an extra back-to-back phase and the
top costs are printed.

    .venv/bin/python -m bench.load            # 200 players: 30 s paced, 10 s per game flat out
    .venv/bin/python -m bench.load --quick    # 10 players, seconds: checks that it all runs
                                              # (the minimal bot with pictures included)
    .venv/bin/python -m bench.load --profile  # and where the bot's time goes
    .venv/bin/python -m bench.load --twin     # the minimal bot against a copy of itself
    .venv/bin/python -m bench.load --pictures off --rounds 6 --burst-rounds 5 --burst 6
                                              # CPU per click, both phases alternating
    .venv/bin/python -m bench.load --transport gateway   # the project on the gateway only
    .venv/bin/python -m bench.load --transport gateway --minimal-pictures
                                              # and the minimal bot with pictures beside

``--twin`` shows how far apart this bench puts two equal bots on this machine: the ratio of
their p99s strays well either side of 1 from run to run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench._standin.checks import answer_problems, check_database
from bench._standin.ids import is_minimal_move, is_move
from bench._standin.players import Load, Outcome, play
from bench._standin.process import MINIMAL_BOT, PROJECT_BOT, ROOT, BotProcess
from bench._standin.server import StandIn
from rules import GAMES

PACED_P99_TARGET_MS = 50.0
TWIN = "twin"  # the minimal bot's second copy (--twin)
PICTURED = "mini-pic"  # the minimal bot with a picture on every board (--minimal-pictures)
#: The subjects: the project's bot on the gateway, on its interactions endpoint, the minimal bot.
PROJECT, HTTP, MINIMAL = "project", "http", "minimal"
#: The ratios reported, each subject's CPU per interaction over the other's.
PAIRS = ((HTTP, PROJECT), (PROJECT, MINIMAL), (HTTP, MINIMAL), (MINIMAL, TWIN),
         (PROJECT, PICTURED), (PICTURED, MINIMAL))
SAMPLE_RATE = 250  # py-spy samples a second
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    game: str  # a game key, or "mixed"
    seconds: float
    outcomes: list[Outcome]
    cpu: float  # the bot's CPU seconds during the phase
    driver_cpu: float  # this process's (players and stand-in) CPU seconds during the phase
    driver_gc_ms: float = 0.0  # this process's longest garbage-collection pause in the phase
    callbacks: int = 0  # interaction callbacks the stand-in received
    with_files: int = 0  # of them, the ones with a file (a picture)

    def latencies(self, kinds: tuple[str, ...] = ("click",), game: str | None = None,
                  ) -> list[float]:
        return [o.record.latency * 1000 for o in self.outcomes
                if o.kind in kinds and o.record.latency is not None
                and (game is None or o.game == game)]

    @property
    def answered(self) -> int:
        return sum(o.record.answered_at is not None for o in self.outcomes)


@dataclass
class Target:
    """One bot measured: its phases and the checks afterwards."""

    name: str
    #: The project's bot (the database is checked, games are told apart), on either transport.
    project: bool = False
    phases: list[Phase] = field(default_factory=list)
    problems: Counter[str] = field(default_factory=Counter)
    database: list[str] = field(default_factory=list)
    log_errors: list[str] = field(default_factory=list)
    profile: list[str] = field(default_factory=list)
    unreported: list[Outcome] = field(default_factory=list)  # the profiled phase's
    rounds: list[Phase] = field(default_factory=list)  # the paced phase's, one by one
    #: The back-to-back phases, one by one, by game ("mixed": the minimal bot's one game).
    burst_rounds: dict[str, list[Phase]] = field(default_factory=dict)


async def run_phase(discord: StandIn, bot: BotProcess, name: str, games: tuple[str, ...],
                    players: int, seconds: float, pace: float | None, first_user: int,
                    is_move_id: object, seed: int) -> Phase:
    load = Load(discord, games, is_move=is_move_id)  # type: ignore[arg-type]
    callbacks, with_files = discord.callbacks, discord.callbacks_with_files
    with quiet_collector() as pauses:
        phase = await _run_phase(load, bot, name, games, players, seconds, pace, first_user,
                                 seed, pauses)
    phase.callbacks = discord.callbacks - callbacks
    phase.with_files = discord.callbacks_with_files - with_files
    return phase


async def _run_phase(load: Load, bot: BotProcess, name: str, games: tuple[str, ...],
                     players: int, seconds: float, pace: float | None, first_user: int,
                     seed: int, pauses: list[float]) -> Phase:
    cpu, driver = bot.cpu_seconds(), time.process_time()
    started = time.perf_counter()
    tasks = [asyncio.create_task(play(load, first_user + i, seed * 1_000_003 + i, pace))
             for i in range(players)]
    await asyncio.sleep(seconds)
    load.stop.set()
    elapsed = time.perf_counter() - started
    await asyncio.gather(*tasks)
    game = games[0] if len(games) == 1 else "mixed"
    return Phase(name, game, elapsed, load.outcomes, bot.cpu_seconds() - cpu,
                 time.process_time() - driver, max(pauses, default=0.0))


@contextlib.contextmanager
def quiet_collector() -> Iterator[list[float]]:
    """Keep this process's full garbage collections out of a phase; yield the pauses (ms) of
    the collections that still run.

    The answers are timestamped on this process's event loop, so a pause here is added to
    every answer arriving meanwhile, and it grows with what the stand-in keeps (every
    board it was sent): it would charge the bigger boards' bot for the driver's own work.
    What exists is frozen and full collections wait for the end of the phase; the young
    generations are still collected.
    """
    gc.collect()
    gc.freeze()
    threshold = gc.get_threshold()
    gc.set_threshold(threshold[0], threshold[1], 1_000_000)
    pauses: list[float] = []
    began = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            pauses.append((time.perf_counter() - began[0]) * 1000)

    gc.callbacks.append(timed)
    try:
        yield pauses
    finally:
        gc.callbacks.remove(timed)
        gc.set_threshold(*threshold)
        gc.unfreeze()
        gc.collect()


@dataclass
class Subject:
    """A bot under test with its own stand-in, and what was measured of it."""

    target: Target
    discord: StandIn
    bot: BotProcess
    database: Path
    is_move_id: object
    user: int = 10_000

    def next_users(self) -> int:
        self.user += 100_000
        return self.user


def specs_for(args: argparse.Namespace) -> list[tuple[str, tuple[str, ...], object, str]]:
    """The subjects to measure: (name, command, move-id test, delivery of interactions)."""
    if args.twin:  # the bench's own spread: one bot against a copy of itself
        return [(MINIMAL, MINIMAL_BOT, is_minimal_move, "gateway"),
                (TWIN, MINIMAL_BOT, is_minimal_move, "gateway")]
    specs: list[tuple[str, tuple[str, ...], object, str]] = []
    if args.transport in ("gateway", "both"):
        specs.append((PROJECT, PROJECT_BOT, is_move, "gateway"))
    if args.transport in ("http", "both"):
        specs.append((HTTP, PROJECT_BOT, is_move, "http"))
    if not args.skip_minimal:
        specs.append((MINIMAL, MINIMAL_BOT, is_minimal_move, "gateway"))
    if args.minimal_pictures:
        specs.append((PICTURED, (*MINIMAL_BOT, "--pictures", args.minimal_pictures),
                      is_minimal_move, "gateway"))
    return specs


def turn(subjects: list[Subject], round_: int) -> list[Subject]:
    """The order of the subjects in round ``round_``: each round starts one further on, so
    that every subject comes first, middle and last alike (with two: alternately)."""
    k = round_ % len(subjects)
    return subjects[k:] + subjects[:k]


async def measure_all(folder: Path, args: argparse.Namespace) -> list[Target]:
    """The bots up at once; the paced phase goes from one to the next in rounds, so a change
    in the machine's background load hits all alike; then the back-to-back phases, in
    rounds the same way."""
    async with contextlib.AsyncExitStack() as stack:
        subjects = []
        for name, command, is_move_id, delivery in specs_for(args):
            discord = await stack.enter_async_context(StandIn(delivery=delivery))
            bot = BotProcess(discord, folder / f"{name}.sqlite3", folder / f"{name}.log",
                             command, log_level="WARNING")
            stack.push_async_callback(bot.stop)
            await bot.start()
            subjects.append(Subject(Target(name, project=command == PROJECT_BOT), discord,
                                    bot, folder / f"{name}.sqlite3", is_move_id))
        games = tuple(GAMES)
        paced: dict[str, list[Phase]] = {s.target.name: [] for s in subjects}
        for round_ in range(args.rounds):
            for s in turn(subjects, round_):
                paced[s.target.name].append(await run_phase(
                    s.discord, s.bot, "paced", games, args.players, args.paced / args.rounds,
                    1.0, s.next_users(), s.is_move_id, args.seed + round_))
        for s in subjects:
            s.target.rounds = paced[s.target.name]
            s.target.phases.append(_merge(paced[s.target.name]))
        # Back to back, each game in turn; with --burst-rounds the bots alternate round after
        # round too, so that both meet the machine's changing load alike.
        burst: dict[str, dict[str, list[Phase]]] = {s.target.name: {} for s in subjects}
        for round_ in range(args.burst_rounds):
            for s in turn(subjects, round_):
                per_game = s.target.project
                for game in games if per_game else ("mixed",):
                    chosen = (game,) if game != "mixed" else games
                    burst[s.target.name].setdefault(game, []).append(await run_phase(
                        s.discord, s.bot, "back-to-back", chosen, args.players, args.burst,
                        None, s.next_users(), s.is_move_id, args.seed + round_))
        for s in subjects:
            for game, phases in burst[s.target.name].items():
                s.target.phases.append(_merge(phases))
                s.target.burst_rounds[game] = phases
            if args.profile:
                s.target.profile = await profiled(s, games, args, folder)
        for s in subjects:
            await s.bot.stop()
            check(s)
    return [s.target for s in subjects]


def _merge(phases: list[Phase]) -> Phase:
    first = phases[0]
    return Phase(first.name, first.game, sum(p.seconds for p in phases),
                 [o for p in phases for o in p.outcomes], sum(p.cpu for p in phases),
                 sum(p.driver_cpu for p in phases), max(p.driver_gc_ms for p in phases),
                 sum(p.callbacks for p in phases), sum(p.with_files for p in phases))


def check(subject: Subject) -> None:
    """Every answer, the database (the project's) and the bot's log, after the bot stopped."""
    target = subject.target
    outcomes = [o for phase in target.phases for o in phase.outcomes] + target.unreported
    target.problems = answer_problems(outcomes)
    if subject.discord.unexpected:
        target.problems["REST routes the stand-in does not serve"] += len(
            subject.discord.unexpected)
    if target.project:
        db = check_database(subject.database, outcomes)
        target.database = [f"integrity_check: {db.integrity}; {db.runs} runs, "
                           f"{db.moves} moves replayed", *db.problems[:20]]
        if not db.ok:
            target.problems["database check failed"] += len(db.problems) or 1
    log = _ANSI.sub("", subject.bot.log_text())
    target.log_errors = [line for line in log.splitlines()
                         if " ERROR " in line or " CRITICAL " in line or "Traceback" in line]
    if target.log_errors:
        target.problems["errors in the bot's log"] += len(target.log_errors)


async def profiled(subject: Subject, games: tuple[str, ...], args: argparse.Namespace,
                   folder: Path) -> list[str]:
    """Sample the bot with py-spy during a back-to-back phase; the top costs, as lines."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        return ["py-spy is not installed (.venv/bin/pip install py-spy): no profile"]
    out = folder / f"{subject.target.name}-profile.txt"
    sampler = await asyncio.create_subprocess_exec(
        spy, "record", "--pid", str(subject.bot.pid), "--duration", str(int(args.burst)),
        "--rate", str(SAMPLE_RATE), "--format", "raw", "--output", str(out), "--nonblocking",
        *(["--gil"] if args.profile_gil else []),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    await asyncio.sleep(0.5)
    pace = 1.0 if args.profile_paced else None
    phase = await run_phase(subject.discord, subject.bot, "profiled", games, args.players,
                            args.burst, pace, subject.next_users(), subject.is_move_id,
                            args.seed)
    subject.target.unreported.extend(phase.outcomes)
    _, err = await sampler.communicate()
    if not out.exists():
        return [f"py-spy failed: {err.decode(errors='replace').strip()[-300:]}"]
    clicks = sum(1 for o in phase.outcomes if o.record.answered_at is not None)
    return summarize_profile(out.read_text(), clicks, phase.cpu)


AREAS = ("rules/", "bot/", "core/", "store/", "bench/", "discord/", "aiohttp/", "aiosqlite/",
         "json/", "asyncio/", "yarl/", "multidict/")
#: Frames every sample passes through (the loop, threads, start-up): left out of "inclusive".
_WRAPPERS = ("asyncio/", "threading.py", "<frozen runpy>", "bot/__main__.py",
             "concurrent/futures")


def summarize_profile(raw: str, clicks: int, cpu: float, rate: int = SAMPLE_RATE,
                      top: int = 14) -> list[str]:
    """py-spy's collapsed stacks to where the time goes: by area (the package of the
    innermost frame), the heaviest functions inclusive (with what they call) and self, each as
    a share of the samples and as milliseconds of thread time per answered interaction (py-spy
    samples threads that are not idle, so a thread waiting on fsync counts; CPU time alone
    is the ``CPU/click`` column)."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    areas: Counter[str] = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = [f for f in (_frame(x) for x in stack.split(";")) if f]
        if not frames:
            continue
        total += n
        for frame in set(frames):
            if not any(w in frame for w in _WRAPPERS):
                inclusive[frame] += n
        own[frames[-1]] += n
        area = next((a for a in AREAS if f"({a}" in frames[-1]), "other (C, stdlib)")
        areas[area.rstrip("/")] += n
    if not total:
        return ["the profile is empty"]
    per_sample = 1000 / rate / max(clicks, 1)  # ms of thread time per click, per sample

    def rows(counter: Counter[str], limit: int = top) -> list[str]:
        return [f"  {100 * n / total:5.1f}%  {per_sample * n:6.3f} ms/click  {frame}"
                for frame, n in counter.most_common(limit)]

    return [f"{total} samples at {rate} Hz, {clicks} interactions answered, bot CPU "
            f"{cpu * 1000 / max(clicks, 1):.2f} ms per interaction",
            "by area (the innermost frame's package):", *rows(areas, len(areas)),
            "inclusive (the function and what it calls):",
            *rows(Counter({k: n for k, n in inclusive.items() if n < 0.98 * total})),
            "self (time in the function's own code):", *rows(own)]


def _frame(frame: str) -> str:
    # "function (path/to/file.py:123)" -> "function (file.py)", the package kept for context
    m = re.fullmatch(r"(.*?) \((.*?)(?::\d+)?\)", frame.strip())
    if not m:
        return frame.strip()
    path = m[2].replace("\\", "/")
    for marker in ("site-packages/", "/lib/python3.11/", str(ROOT) + "/"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{m[1]} ({path})"


def _pct(values: list[float]) -> tuple[float, float, float, float]:
    if not values:
        return (float("nan"),) * 4  # type: ignore[return-value]
    if len(values) == 1:
        return values[0], values[0], values[0], values[0]
    q = statistics.quantiles(values, n=100, method="inclusive")
    return q[49], q[94], q[98], max(values)


def cpu_per_interaction(phase: Phase) -> float:
    """The bot's CPU milliseconds per interaction it answered in ``phase``."""
    return phase.cpu * 1000 / max(phase.answered, 1)


def pairs(targets: list[Target]) -> list[tuple[Target, Target]]:
    """The pairs of :data:`PAIRS` both measured."""
    by_name = {t.name: t for t in targets}
    return [(by_name[a], by_name[b]) for a, b in PAIRS if a in by_name and b in by_name]


def _ratios(mine: list[Phase], theirs: list[Phase]) -> list[float]:
    return [cpu_per_interaction(a) / cpu_per_interaction(b)
            for a, b in zip(mine, theirs, strict=False) if cpu_per_interaction(b) > 0]


def _spread(values: list[float]) -> str:
    return (f"median {statistics.median(values):.2f} "
            f"[{min(values):.2f}-{max(values):.2f}]")


def paced_rounds(targets: list[Target]) -> None:
    """Each bot's paced CPU per interaction round by round (within a round the bots follow
    one another, so round k of one is beside round k of the others), its median and range,
    and the ratios of :data:`PAIRS` round by round."""
    measured = [t for t in targets if t.rounds]
    if not measured:
        return
    print("paced CPU per interaction, round by round (ms): median [range]")
    for target in measured:
        values = [cpu_per_interaction(r) for r in target.rounds]
        print(f"  {target.name:<9} " + " ".join(f"{v:.2f}" for v in values)
              + f"   {statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]")
    for mine, theirs in pairs(measured):
        ratios = _ratios(mine.rounds, theirs.rounds)
        if ratios:
            print(f"  {mine.name} / {theirs.name}: " + " ".join(f"{r:.2f}" for r in ratios)
                  + f"   {_spread(ratios)}")


def burst_rounds(targets: list[Target]) -> None:
    """With several back-to-back rounds: each bot's CPU per interaction and clicks/s per game,
    round by round, with the median and range, and the ratios of :data:`PAIRS` per game
    round by round (against the minimal bot's one game, "mixed")."""
    measured = [t for t in targets if any(len(p) > 1 for p in t.burst_rounds.values())]
    if not measured:
        return
    print("back-to-back CPU per interaction (ms) and clicks/s, round by round: median [range]")
    for target in measured:
        for game, phases in target.burst_rounds.items():
            cpu = [cpu_per_interaction(p) for p in phases]
            rate = [p.answered / p.seconds for p in phases]
            print(f"  {target.name:<9} {game:<9} " + " ".join(f"{v:.2f}" for v in cpu)
                  + f"   {statistics.median(cpu):.2f} [{min(cpu):.2f}-{max(cpu):.2f}] ms;"
                  f" {statistics.median(rate):.0f} [{min(rate):.0f}-{max(rate):.0f}] /s")
    for mine, theirs in pairs(measured):
        for game, phases in mine.burst_rounds.items():
            base = (theirs.burst_rounds.get(game) or theirs.burst_rounds.get("mixed")
                    or next(iter(theirs.burst_rounds.values())))
            ratios = _ratios(phases, base)
            if ratios:
                print(f"  {mine.name} {game} / {theirs.name}: "
                      + " ".join(f"{r:.2f}" for r in ratios) + f"   {_spread(ratios)}")


def report(targets: list[Target], args: argparse.Namespace) -> bool:
    """Print the figures; whether every check passed (targets missed are only reported)."""
    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}; load average before: {args.load_before}; "
          f"{args.players} players")
    print("latency in ms from the interaction sent to its answer received; CPU/click is the "
          "bot's; driver CPU is this process's (players and stand-in), of one core")
    names = {t.name for t in targets}
    print("subjects: " + "; ".join(text for name, text in (
        (PROJECT, "project = the project's bot, interactions on the gateway"),
        (HTTP, "http = the project's bot, interactions on its endpoint (signed POSTs)"),
        (MINIMAL, "minimal = the minimal discord.py bot, on the gateway"),
        (TWIN, "twin = a second minimal bot"),
        (PICTURED, f"mini-pic = the minimal bot with a picture on every board "
                   f"({args.minimal_pictures})")) if name in names))
    print(f"{'bot':<9} {'phase':<13} {'game':<7} {'clicks/s':>9} {'p50':>7} {'p95':>7} "
          f"{'p99':>7} {'max':>7} {'CPU/click':>10} {'n':>6} {'driver CPU':>10}")
    paced_p99: dict[str, dict[str, float]] = {}
    for target in targets:
        for phase in target.phases:
            games = [phase.game] if phase.game != "mixed" else ["all", *GAMES]
            if not target.project:  # its one game is the same whatever was asked
                games = ["all"]
            for game in games:
                only = None if game == "all" else game
                ms = phase.latencies(("click", "stale", "other", "forged"), only)
                if phase.name == "paced":
                    paced_p99.setdefault(target.name, {})[game] = _pct(
                        phase.latencies(("click",), only))[2]
                p50, p95, p99, top = _pct(ms)
                rate = len(ms) / phase.seconds
                answered = max(phase.answered, 1)
                whole = game in ("all", phase.game)
                cpu = f"{phase.cpu * 1000 / answered:7.2f} ms" if whole else ""
                driver = f"{100 * phase.driver_cpu / phase.seconds:6.0f} %" if whole else ""
                print(f"{target.name:<9} {phase.name:<13} {game:<7} {rate:9.0f} {p50:7.1f} "
                      f"{p95:7.1f} {p99:7.1f} {top:7.1f} {cpu:>10} {len(ms):>6} {driver:>10}")
        gc_ms = max((phase.driver_gc_ms for phase in target.phases), default=0.0)
        print(f"{target.name:<9} the driver's longest garbage-collection pause in a phase: "
              f"{gc_ms:.1f} ms")
        for name in ("paced", "back-to-back"):
            starts = [ms for phase in target.phases if phase.name == name
                      for ms in phase.latencies(("start",))]
            p50, _, p99, _ = _pct(starts)
            print(f"{target.name:<9} starting a run (/play), {name}: {len(starts)}, "
                  f"p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        shares = []
        for name in ("paced", "back-to-back"):
            answers = sum(p.callbacks for p in target.phases if p.name == name)
            files = sum(p.with_files for p in target.phases if p.name == name)
            shares.append(f"{name} {files} of {answers} ({100 * files / max(answers, 1):.0f}%)")
        print(f"{target.name:<9} answers with a picture: " + ", ".join(shares))
    paced_rounds(targets)
    burst_rounds(targets)
    ok = True
    minimal = paced_p99.get(MINIMAL, {})
    for name in (PROJECT, HTTP):
        project = paced_p99.get(name, {})
        if not (project and minimal):
            continue
        base = minimal.get("all", float("nan"))
        print(f"paced p99, {name} / minimal bot ({base:.1f} ms); target <= 1.0 for every game:")
        for game, value in project.items():
            verdict = "ok" if value <= base else "MISSED"
            print(f"  {game:<7} {value:6.1f} ms  ratio {value / base:4.2f}  {verdict}")
        worst = max(project.values())
        print(f"paced p99 target < {PACED_P99_TARGET_MS:.0f} ms ({name}): worst {worst:.1f} ms "
              f"{'ok' if worst < PACED_P99_TARGET_MS else 'MISSED'}")
    twin = paced_p99.get(TWIN, {}).get("all")
    if twin:
        base = paced_p99["minimal"]["all"]
        print(f"paced p99, minimal bot / its twin: {base:.1f} / {twin:.1f} ms, ratio "
              f"{base / twin:4.2f} (two copies of one bot: how far apart this bench puts equals)")
    for target in targets:
        for line in target.database:
            print(f"{target.name}: {line}")
        if target.problems:
            ok = False
            for problem, n in target.problems.most_common():
                print(f"{target.name}: ERROR {n} × {problem}")
            for phase in [*target.phases, Phase("profiled", "mixed", 0, target.unreported, 0, 0)]:
                found = answer_problems(phase.outcomes)
                if found:
                    where = f"{phase.name} {phase.game}"
                    print(f"{target.name}:   in {where}: " + ", ".join(
                        f"{n} × {problem}" for problem, n in found.most_common()))
            for line in target.log_errors[:5]:
                print(f"{target.name}:   {line}")
        else:
            answered = sum(p.answered for p in target.phases)
            print(f"{target.name}: {answered} interactions, each answered exactly once; "
                  "no error")
        if target.profile:
            kind = "paced" if args.profile_paced else "back-to-back"
            print(f"{target.name}: profile (py-spy, {kind} play, all games)")
            for line in target.profile:
                print(f"  {line}")
    return ok


async def main_async(args: argparse.Namespace) -> bool:
    args.load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="dd-load-") as tmp:
        folder = Path(tmp)
        targets = await measure_all(folder, args)
        ok = report(targets, args)
        if args.keep:
            shutil.copytree(folder, args.keep, dirs_exist_ok=True)
        return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="10 players, a few seconds: checks that everything runs")
    parser.add_argument("--players", type=int, default=200, help="players at once (200)")
    parser.add_argument("--paced", type=float, default=30.0,
                        help="seconds of paced play, a click a second each (30)")
    parser.add_argument("--burst", type=float, default=10.0,
                        help="seconds of back-to-back play per game (10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--profile", action="store_true",
                        help="also sample the bot with py-spy and print where the time goes")
    parser.add_argument("--profile-paced", action="store_true",
                        help="with --profile: sample paced play (a click a second each) "
                             "instead of back-to-back play")
    parser.add_argument("--profile-gil", action="store_true",
                        help="with --profile: sample only the thread holding the GIL (py-spy "
                             "--gil): the Python work, without threads waiting on the disk or "
                             "the network, which py-spy otherwise counts as busy")
    parser.add_argument("--pictures", choices=("on", "off"), default="on",
                        help="the project's table pictures (TABLE_PICTURES; default on): off "
                             "compares like with like, the minimal bot draws none")
    parser.add_argument("--transport", choices=("gateway", "http", "both"), default="both",
                        help="how the project's bot receives interactions: on the gateway, on "
                             "its interactions endpoint (signed HTTP POSTs), or both side by "
                             "side in the same run (default)")
    parser.add_argument("--skip-minimal", action="store_true",
                        help="do not measure the minimal bot")
    parser.add_argument("--minimal-pictures", nargs="?", const="drawn",
                        choices=("drawn", "constant"),
                        help="also measure the minimal bot with a picture on every board, from "
                             "a worker process: each board's own (drawn, the default) or one "
                             "drawn once (constant: the picture's way without its drawing)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="the paced phase goes round the bots in this many rounds")
    parser.add_argument("--burst-rounds", type=int, default=1,
                        help="back-to-back rounds, each --burst seconds per game, alternating "
                             "between the bots (1)")
    parser.add_argument("--twin", action="store_true",
                        help="measure the minimal bot against a second copy of itself instead "
                             "of the project: the ratio two equal bots get here")
    parser.add_argument("--keep", type=Path, help="copy the databases and logs here")
    args = parser.parse_args(argv)
    os.environ["TABLE_PICTURES"] = args.pictures  # the bot processes inherit it
    print(f"table pictures: {args.pictures}")
    if args.quick:
        args.players, args.paced, args.burst, args.rounds = min(args.players, 10), 2.0, 1.0, 1
        args.burst_rounds = min(args.burst_rounds, 2)
        if not args.twin:  # every subject runs, for CI to see
            args.minimal_pictures = args.minimal_pictures or "drawn"
    return 0 if asyncio.run(main_async(args)) else 1


if __name__ == "__main__":
    sys.exit(main())
