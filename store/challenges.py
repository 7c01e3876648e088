"""Challenges: one deal that several players play by a deadline, and their runs of it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol

from store.dialect import Conflict, Db, Query, Row
from store.texts import said


@dataclass(frozen=True)
class NewChallenge:
    """What inserting a challenge needs; the store adds the id (no card yet, not closed)."""

    owner_id: int
    opponent_id: int | None
    guild_id: int | None
    channel_id: int | None
    game: str
    variant: str
    seed: int
    created_at: str
    deadline: str


@dataclass(frozen=True)
class ChallengeRow:
    """One stored challenge (the core's ``Challenge`` is made from it, field for field)."""

    id: int
    owner_id: int
    opponent_id: int | None
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    game: str
    variant: str
    seed: int
    created_at: str
    deadline: str
    closed_at: str | None


@dataclass(frozen=True)
class ChallengeEntry:
    """One player's run of a challenge, as its card lists it."""

    owner_id: int
    name: str
    run_id: int
    status: str
    outcome: str | None
    score: list[int]
    score_text: str
    unfinished: bool


@dataclass(frozen=True)
class ChallengeStats:
    """A player's challenges of one game: how many they played, and how many they won."""

    played: int
    won: int


class Challenges(Protocol):
    """The queries of challenges."""

    def insert_challenge(self, challenge: NewChallenge) -> int: ...
    def challenge(self, challenge_id: int) -> ChallengeRow | None: ...
    def set_challenge_card(self, challenge_id: int, channel_id: int, message_id: int) -> None: ...
    def close_challenge(self, challenge_id: int, now: str) -> bool: ...
    def due_challenges(self, now: str, limit: int) -> list[int]: ...
    def open_challenges(self, user_id: int, limit: int) -> list[ChallengeRow]: ...
    def insert_challenge_run(self, challenge_id: int, owner_id: int, run_id: int) -> None: ...
    def challenge_run(self, challenge_id: int, owner_id: int) -> int | None: ...
    def challenge_of_run(self, run_id: int) -> int | None: ...
    def challenge_entries(self, challenge_id: int) -> list[ChallengeEntry]: ...
    def mark_unfinished(self, challenge_id: int, owner_id: int) -> None: ...
    def challenge_stats(self, owner_id: int, game: str) -> ChallengeStats: ...


_COLUMNS = """
    id, owner_id, opponent_id, guild_id, channel_id, message_id, game, variant, seed,
    created_at, deadline, closed_at
"""
INSERT_CHALLENGE = Query.both("""
    INSERT INTO challenges (owner_id, opponent_id, guild_id, channel_id, game, variant, seed,
                            created_at, deadline)
    VALUES ({owner_id}, {opponent_id}, {guild_id}, {channel_id}, {game}, {variant}, {seed},
            {created_at}, {deadline})
    RETURNING id
""")
SELECT_CHALLENGE = Query.both(f"SELECT {_COLUMNS} FROM challenges WHERE id = {{id}}")
SET_CHALLENGE_CARD = Query.both("""
    UPDATE challenges SET channel_id = {channel_id}, message_id = {message_id} WHERE id = {id}
""")
CLOSE_CHALLENGE = Query.both(
    "UPDATE challenges SET closed_at = {now} WHERE id = {id} AND closed_at IS NULL"
)
SELECT_DUE_CHALLENGES = Query.both("""
    SELECT id FROM challenges WHERE closed_at IS NULL AND deadline <= {now}
    ORDER BY deadline, id LIMIT {limit}
""")
# A player's open challenges: their own, those they play, and those naming them.
SELECT_OPEN_CHALLENGES = Query.both(f"""
    SELECT {_COLUMNS} FROM challenges AS c
    WHERE c.closed_at IS NULL AND (
        c.owner_id = {{user_id}} OR c.opponent_id = {{user_id}}
        OR EXISTS (SELECT 1 FROM challenge_runs AS cr
                   WHERE cr.challenge_id = c.id AND cr.owner_id = {{user_id}}))
    ORDER BY c.deadline, c.id LIMIT {{limit}}
""")
INSERT_CHALLENGE_RUN = Query.both("""
    INSERT INTO challenge_runs (challenge_id, owner_id, run_id)
    VALUES ({challenge_id}, {owner_id}, {run_id})
    ON CONFLICT DO NOTHING
""")
SELECT_CHALLENGE_RUN = Query.both("""
    SELECT run_id FROM challenge_runs
    WHERE challenge_id = {challenge_id} AND owner_id = {owner_id}
""")
SELECT_CHALLENGE_OF_RUN = Query.both(
    "SELECT challenge_id FROM challenge_runs WHERE run_id = {run_id}"
)
# A card's lines: best score first, equal scores by name (never by time).
SELECT_CHALLENGE_ENTRIES = Query.both("""
    SELECT cr.owner_id, coalesce(p.name, '') AS name, r.id AS run_id, r.status, r.outcome,
           r.score, r.score_text, cr.unfinished
    FROM challenge_runs AS cr
    JOIN runs AS r ON r.id = cr.run_id
    LEFT JOIN players AS p ON p.user_id = cr.owner_id
    WHERE cr.challenge_id = {challenge_id}
    ORDER BY r.score_key DESC, lower(coalesce(p.name, '')), cr.owner_id
""")
MARK_UNFINISHED = Query.both("""
    UPDATE challenge_runs SET unfinished = 1
    WHERE challenge_id = {challenge_id} AND owner_id = {owner_id}
""")
# Played: the player's finished challenge runs. Won: of a closed challenge with another
# player in it, nobody scored higher (a shared first place is a win).
SELECT_CHALLENGE_STATS = Query.both("""
    SELECT count(*) AS played,
           coalesce(sum(CASE WHEN c.closed_at IS NOT NULL
               AND EXISTS (SELECT 1 FROM challenge_runs AS o
                           WHERE o.challenge_id = c.id AND o.owner_id <> cr.owner_id)
               AND NOT EXISTS (SELECT 1 FROM challenge_runs AS o JOIN runs AS ro ON ro.id = o.run_id
                               WHERE o.challenge_id = c.id AND ro.score_key > r.score_key)
               THEN 1 ELSE 0 END), 0) AS won
    FROM challenge_runs AS cr
    JOIN challenges AS c ON c.id = cr.challenge_id
    JOIN runs AS r ON r.id = cr.run_id
    WHERE cr.owner_id = {owner_id} AND c.game = {game} AND r.status <> 'playing'
""")


class ChallengesSql:
    """:class:`Challenges` over a :class:`~store.dialect.Db`."""

    db: Db

    def insert_challenge(self, challenge: NewChallenge) -> int:
        row = self.db.one(INSERT_CHALLENGE, {
            "owner_id": challenge.owner_id, "opponent_id": challenge.opponent_id,
            "guild_id": challenge.guild_id, "channel_id": challenge.channel_id,
            "game": challenge.game, "variant": challenge.variant, "seed": str(challenge.seed),
            "created_at": challenge.created_at, "deadline": challenge.deadline,
        })
        assert row is not None
        return int(row["id"])

    def challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = self.db.one(SELECT_CHALLENGE, {"id": challenge_id})
        return None if row is None else _challenge_row(row)

    def set_challenge_card(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        self.db.change(SET_CHALLENGE_CARD, {
            "id": challenge_id, "channel_id": channel_id, "message_id": message_id,
        })

    def close_challenge(self, challenge_id: int, now: str) -> bool:
        return self.db.change(CLOSE_CHALLENGE, {"id": challenge_id, "now": now}) == 1

    def due_challenges(self, now: str, limit: int) -> list[int]:
        rows = self.db.all(SELECT_DUE_CHALLENGES, {"now": now, "limit": limit})
        return [row["id"] for row in rows]

    def open_challenges(self, user_id: int, limit: int) -> list[ChallengeRow]:
        rows = self.db.all(SELECT_OPEN_CHALLENGES, {"user_id": user_id, "limit": limit})
        return [_challenge_row(row) for row in rows]

    def insert_challenge_run(self, challenge_id: int, owner_id: int, run_id: int) -> None:
        params = {"challenge_id": challenge_id, "owner_id": owner_id, "run_id": run_id}
        if self.db.change(INSERT_CHALLENGE_RUN, params) != 1:
            raise Conflict(f"challenge {challenge_id} has a run of {owner_id} already")

    def challenge_run(self, challenge_id: int, owner_id: int) -> int | None:
        params = {"challenge_id": challenge_id, "owner_id": owner_id}
        row = self.db.one(SELECT_CHALLENGE_RUN, params)
        return None if row is None else row["run_id"]

    def challenge_of_run(self, run_id: int) -> int | None:
        row = self.db.one(SELECT_CHALLENGE_OF_RUN, {"run_id": run_id})
        return None if row is None else row["challenge_id"]

    def challenge_entries(self, challenge_id: int) -> list[ChallengeEntry]:
        rows = self.db.all(SELECT_CHALLENGE_ENTRIES, {"challenge_id": challenge_id})
        return [
            ChallengeEntry(
                owner_id=row["owner_id"], name=row["name"], run_id=row["run_id"],
                status=row["status"], outcome=row["outcome"], score=json.loads(row["score"]),
                score_text=said(row["score_text"]), unfinished=bool(row["unfinished"]),
            )
            for row in rows
        ]

    def mark_unfinished(self, challenge_id: int, owner_id: int) -> None:
        self.db.change(MARK_UNFINISHED, {"challenge_id": challenge_id, "owner_id": owner_id})

    def challenge_stats(self, owner_id: int, game: str) -> ChallengeStats:
        row = self.db.one(SELECT_CHALLENGE_STATS, {"owner_id": owner_id, "game": game})
        assert row is not None
        return ChallengeStats(played=int(row["played"]), won=int(row["won"]))


def _challenge_row(row: Row) -> ChallengeRow:
    return ChallengeRow(
        id=row["id"], owner_id=row["owner_id"], opponent_id=row["opponent_id"],
        guild_id=row["guild_id"], channel_id=row["channel_id"], message_id=row["message_id"],
        game=row["game"], variant=row["variant"], seed=int(row["seed"]),
        created_at=row["created_at"], deadline=row["deadline"], closed_at=row["closed_at"],
    )
