-- Dungeon Deck, schema version 3 (PostgreSQL): the daily as a product — leaderboards, stats
-- and streaks answered from indexes, player names for the tie-break, per-player settings, and
-- the record of each server's daily post. Mirrors migrations/sqlite/0003_daily.sql (Discord
-- ids are BIGINT here).

-- What a leaderboard line shows without loading the run's state.
ALTER TABLE runs ADD COLUMN score_text TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN points INTEGER NOT NULL DEFAULT 0;

-- A day's board, global and per server: ranked runs in score order.
CREATE INDEX runs_board ON runs (game, variant, day, score_key DESC)
    WHERE kind = 'daily' AND ranked = 1;
CREATE INDEX runs_guild_board ON runs (guild_id, game, variant, day, score_key DESC)
    WHERE kind = 'daily' AND ranked = 1;
-- A player's finished dailies by day (streaks, the last 14 days).
CREATE INDEX runs_player_days ON runs (owner_id, game, day)
    WHERE kind = 'daily' AND status <> 'playing';
-- A player's stats per game and kind.
CREATE INDEX runs_player_stats ON runs (owner_id, game, kind, status);

-- The name a player is shown (and ordered) by on boards. Compared byte by byte (COLLATE "C",
-- and lower() then changes ASCII letters only), as SQLite compares it, whatever the locale.
CREATE TABLE players (
    user_id    BIGINT PRIMARY KEY,
    name       TEXT   COLLATE "C" NOT NULL,
    updated_at TEXT   NOT NULL
);

CREATE TABLE player_settings (
    user_id BIGINT NOT NULL,
    key     TEXT   NOT NULL,
    value   TEXT   NOT NULL,
    PRIMARY KEY (user_id, key)
);

-- One daily post per server and day: claimed before sending, then marked posted or skipped.
CREATE TABLE daily_posts (
    guild_id   BIGINT NOT NULL,
    day        TEXT   NOT NULL,
    status     TEXT   NOT NULL CHECK (status IN ('claimed', 'posted', 'skipped')),
    channel_id BIGINT,
    message_id BIGINT,
    at         TEXT   NOT NULL,
    note       TEXT,
    PRIMARY KEY (guild_id, day)
);
