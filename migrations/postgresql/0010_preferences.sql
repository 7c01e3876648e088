-- Dungeon Deck, schema version 10 (PostgreSQL): the players' global-board and reminders
-- preferences. Mirrors migrations/sqlite/0010_preferences.sql.
ALTER TABLE players ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1));

CREATE INDEX player_settings_by_key ON player_settings (key, value, user_id);

CREATE TABLE reminders (
    user_id BIGINT NOT NULL,
    day     TEXT   COLLATE "C" NOT NULL,
    status  TEXT   NOT NULL CHECK (status IN ('claimed', 'sent', 'skipped')),
    note    TEXT,
    at      TEXT   NOT NULL,
    PRIMARY KEY (user_id, day)
);
