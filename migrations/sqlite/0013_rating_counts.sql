-- Dungeon Deck, schema version 13: how many players of each rating board hold each rating,
-- kept as the ratings are written, so a rating board's size, a line's rank and the first
-- rating of a deep page are sums over the board's distinct ratings (a few thousand at most)
-- instead of walks of its lines (everyone's Donsol board holds 330,000 players at
-- 10,000,000 runs). As board_counts (migration 0011) for the day boards.
--
-- guild_id 0 is everyone's board (ratings), any other a server's (rating_members, whose rows
-- carry the member's rating). A board with an account-age bound is not counted here: it is a
-- server's (small), read from its members.
CREATE TABLE rating_counts (
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    guild_id INTEGER NOT NULL,  -- 0: everyone
    rating   INTEGER NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (game, variant, guild_id, rating)
);

-- A player's rating moves from one count to another; a count that reaches 0 goes.
CREATE TRIGGER ratings_counts_insert AFTER INSERT ON ratings
BEGIN
    INSERT INTO rating_counts (game, variant, guild_id, rating, n)
    VALUES (NEW.game, NEW.variant, 0, NEW.rating, 1)
    ON CONFLICT (game, variant, guild_id, rating) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER ratings_counts_update AFTER UPDATE OF rating ON ratings
WHEN NEW.rating <> OLD.rating
BEGIN
    DELETE FROM rating_counts
    WHERE game = OLD.game AND variant = OLD.variant AND guild_id = 0 AND rating = OLD.rating
      AND n = 1;
    UPDATE rating_counts SET n = n - 1
    WHERE game = OLD.game AND variant = OLD.variant AND guild_id = 0 AND rating = OLD.rating;
    INSERT INTO rating_counts (game, variant, guild_id, rating, n)
    VALUES (NEW.game, NEW.variant, 0, NEW.rating, 1)
    ON CONFLICT (game, variant, guild_id, rating) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER ratings_counts_delete AFTER DELETE ON ratings
BEGIN
    DELETE FROM rating_counts
    WHERE game = OLD.game AND variant = OLD.variant AND guild_id = 0 AND rating = OLD.rating
      AND n = 1;
    UPDATE rating_counts SET n = n - 1
    WHERE game = OLD.game AND variant = OLD.variant AND guild_id = 0 AND rating = OLD.rating;
END;

CREATE TRIGGER rating_members_counts_insert AFTER INSERT ON rating_members
BEGIN
    INSERT INTO rating_counts (game, variant, guild_id, rating, n)
    VALUES (NEW.game, NEW.variant, NEW.guild_id, NEW.rating, 1)
    ON CONFLICT (game, variant, guild_id, rating) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER rating_members_counts_update AFTER UPDATE OF rating ON rating_members
WHEN NEW.rating <> OLD.rating
BEGIN
    DELETE FROM rating_counts
    WHERE game = OLD.game AND variant = OLD.variant AND guild_id = OLD.guild_id
      AND rating = OLD.rating AND n = 1;
    UPDATE rating_counts SET n = n - 1
    WHERE game = OLD.game AND variant = OLD.variant AND guild_id = OLD.guild_id
      AND rating = OLD.rating;
    INSERT INTO rating_counts (game, variant, guild_id, rating, n)
    VALUES (NEW.game, NEW.variant, NEW.guild_id, NEW.rating, 1)
    ON CONFLICT (game, variant, guild_id, rating) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER rating_members_counts_delete AFTER DELETE ON rating_members
BEGIN
    DELETE FROM rating_counts
    WHERE game = OLD.game AND variant = OLD.variant AND guild_id = OLD.guild_id
      AND rating = OLD.rating AND n = 1;
    UPDATE rating_counts SET n = n - 1
    WHERE game = OLD.game AND variant = OLD.variant AND guild_id = OLD.guild_id
      AND rating = OLD.rating;
END;

-- The boards rated before this version.
INSERT INTO rating_counts (game, variant, guild_id, rating, n)
SELECT game, variant, 0, rating, count(*) FROM ratings
GROUP BY game, variant, rating;

INSERT INTO rating_counts (game, variant, guild_id, rating, n)
SELECT game, variant, guild_id, rating, count(*) FROM rating_members
GROUP BY game, variant, guild_id, rating;
