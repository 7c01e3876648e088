-- Dungeon Deck, schema version 10: the players' global-board and reminders preferences.
--
-- `/preferences global-board:off` keeps the choice in player_settings (as every preference)
-- and mirrors it here, on the row the boards already join for the name: a hidden player
-- keeps their line and rank on the global boards, shown as "a player", at no extra read.
-- A player who sets it before ever playing gets a row with an empty name (filled in when
-- they next play), as a board shows a player it has no name for.
ALTER TABLE players ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1));

-- Who asked for reminders (`/preferences reminders:on`): the reminder pass reads them by key.
CREATE INDEX player_settings_by_key ON player_settings (key, value, user_id);

-- The streak reminders sent: one row per player and day, claimed before the message is sent
-- (as daily_posts), so a reminder goes out at most once however many processes run.
CREATE TABLE reminders (
    user_id INTEGER NOT NULL,
    day     TEXT    NOT NULL,  -- YYYY-MM-DD: the day whose deal the reminder is about
    status  TEXT    NOT NULL CHECK (status IN ('claimed', 'sent', 'skipped')),
    note    TEXT,
    at      TEXT    NOT NULL,
    PRIMARY KEY (user_id, day)
) WITHOUT ROWID;
