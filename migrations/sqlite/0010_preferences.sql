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

-- A server's rating board (/leaderboard day:rating in a server) was its members joined to
-- their ratings and sorted: every member read and sorted on each page (on PostgreSQL a deep
-- page of a large server read the whole ratings table). Each membership now carries the
-- member's rating, written with it in the same transaction (store/ratings.py), so the board
-- walks one index of the server's members by rating, as everyone's walks ratings_board.
ALTER TABLE rating_members ADD COLUMN rating INTEGER NOT NULL DEFAULT 0;
UPDATE rating_members SET rating = (
    SELECT r.rating FROM ratings AS r
    WHERE r.game = rating_members.game AND r.variant = rating_members.variant
      AND r.owner_id = rating_members.owner_id
);
CREATE INDEX rating_members_board
    ON rating_members (guild_id, game, variant, rating DESC, owner_id);
-- A player's memberships, to carry a new rating to each of them.
CREATE INDEX rating_members_player ON rating_members (game, variant, owner_id);
