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
