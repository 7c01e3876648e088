"""What must hold of the database after a load or a crash test, read from the SQLite file
itself (opened read-only), and of the answers the stand-in recorded.

- ``PRAGMA integrity_check`` is ``ok``;
- every run's moves are numbered 1..n with n its move count, and replay (``rules.replay``)
  to the state stored with it;
- every promised move (a click answered with an updated board) is in the moves table, as
  the move after the board it was clicked on;
- no run has more moves than clicks were sent to it (no click applied twice);
- every interaction got exactly one response and none was refused by Discord's rules (over
  HTTP, the endpoint answered 200 or 202).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._standin import payloads as p
from bench._standin.ids import parse_move
from bench._standin.players import Outcome
from rules import GAMES, replay


@dataclass
class DatabaseCheck:
    integrity: str = ""
    runs: int = 0
    moves: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.integrity == "ok" and not self.problems


Row = tuple[int, str, str, Any, str | None, int, str]


def read_database(path: Path) -> tuple[str, list[Row], dict[int, list[tuple[int, str]]]]:
    """The SQLite file at ``path``, opened read-only: its ``integrity_check``, every run as
    ``(id, game, variant, seed, deck, moves, state)`` and every run's log of
    ``(number, action)`` in order."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        integrity = "; ".join(r[0] for r in conn.execute("PRAGMA integrity_check"))
        logs: dict[int, list[tuple[int, str]]] = {}
        for run_id, number, action in conn.execute(
                "SELECT run_id, number, action FROM moves ORDER BY run_id, number"):
            logs.setdefault(run_id, []).append((number, action))
        rows = conn.execute(
            "SELECT id, game, variant, seed, deck, moves, state FROM runs").fetchall()
    finally:
        conn.close()
    return integrity, rows, logs


def check_database(path: Path, outcomes: Iterable[Outcome]) -> DatabaseCheck:
    """Check the database at ``path`` against the players' ``outcomes``."""
    outcomes = list(outcomes)
    report = DatabaseCheck()
    report.integrity, rows, logs = read_database(path)
    report.runs = len(rows)
    report.moves = sum(len(v) for v in logs.values())
    sent = Counter(m.run_id for o in outcomes if o.kind == "click"
                   and (m := parse_move(o.record.data.get("custom_id", ""))))
    report.problems += log_problems(rows, logs, outcomes, sent or None)
    return report


def log_problems(
    rows: Iterable[Row],
    logs: dict[int, list[tuple[int, str]]],
    outcomes: Iterable[Outcome],
    clicks: Counter[int] | None,
) -> list[str]:
    """What is wrong with stored runs and their move logs, whatever the database: ``rows`` as
    ``(id, game, variant, seed, deck, moves, state)``, ``logs`` run id -> ``(number, action)``
    in order; every promised move of ``outcomes`` must be stored, and (with ``clicks``, run id
    -> clicks sent to it) no run may have more moves than clicks."""
    problems: list[str] = []
    for run_id, game, variant, seed, deck, count, state in rows:
        log = logs.get(run_id, [])
        if [n for n, _ in log] != list(range(1, len(log) + 1)) or len(log) != count:
            problems.append(f"run {run_id}: moves numbered {[n for n, _ in log]}, "
                            f"count {count}")
            continue
        try:
            final = replay(game, variant, int(seed), [a for _, a in log],
                           json.loads(deck) if deck else None)
        except Exception as exc:  # an illegal stored move is exactly what this looks for
            problems.append(f"run {run_id}: its moves do not replay ({exc})")
            continue
        if GAMES[game].dump(final) != json.loads(state):
            problems.append(f"run {run_id}: replayed state differs from the stored one")
    actions = {(run_id, n): a for run_id, log in logs.items() for n, a in log}
    for outcome in outcomes:
        move = outcome.promised
        if move is not None and actions.get((move.run_id, move.version + 1)) != move.action:
            problems.append(
                f"promised move lost: run {move.run_id} move {move.version + 1} {move.action!r}"
                f" (stored: {actions.get((move.run_id, move.version + 1))!r})")
    if clicks is not None:
        for run_id, log in logs.items():
            if len(log) > clicks[run_id]:
                problems.append(f"run {run_id}: {len(log)} moves from {clicks[run_id]} clicks")
    return problems


def answer_problems(outcomes: Iterable[Outcome]) -> Counter[str]:
    """Interactions that did not get exactly one good answer, by what went wrong."""
    found: Counter[str] = Counter()
    for outcome in outcomes:
        record = outcome.record
        if not record.delivered:
            found["not delivered (bot offline)"] += 1
        elif record.answered_at is None:
            found["no answer in 3 s"] += 1
        elif "error id" in record.text:
            found["answered with an error id"] += 1
        elif outcome.kind == "click" and record.ephemeral:
            found["click refused"] += 1
        elif outcome.kind == "start" and record.ephemeral and not p.buttons(
                {"components": ((record.response or {}).get("data") or {}).get("components")}):
            found["start refused"] += 1
        for code in record.refused:
            found[f"callback refused with {code}"] += 1
        if record.http_status not in (None, 200, 202):
            found[f"the interactions endpoint answered {record.http_status}"] += 1
    return found
