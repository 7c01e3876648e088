-- Dungeon Deck, schema version 13 (PostgreSQL): how many players of each rating board hold
-- each rating, kept as the ratings are written. Mirrors migrations/sqlite/0013_rating_counts.sql
-- (guild_id 0: everyone's board, from ratings; any other: a server's, from rating_members).
CREATE TABLE rating_counts (
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    guild_id BIGINT  NOT NULL,
    rating   INTEGER NOT NULL,
    n        BIGINT  NOT NULL,
    PRIMARY KEY (game, variant, guild_id, rating)
);

-- One player more (step 1) or fewer (step -1) at a rating; a count that reaches 0 goes.
CREATE FUNCTION rating_counts_step(g TEXT, v TEXT, guild BIGINT, r INTEGER, step INTEGER)
RETURNS void LANGUAGE plpgsql AS '
BEGIN
    IF step > 0 THEN
        INSERT INTO rating_counts (game, variant, guild_id, rating, n)
        VALUES (g, v, guild, r, 1)
        ON CONFLICT (game, variant, guild_id, rating) DO UPDATE SET n = rating_counts.n + 1;
    ELSE
        DELETE FROM rating_counts
        WHERE game = g AND variant = v AND guild_id = guild AND rating = r AND n = 1;
        UPDATE rating_counts SET n = n - 1
        WHERE game = g AND variant = v AND guild_id = guild AND rating = r;
    END IF;
END
';

CREATE FUNCTION ratings_counts() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
    IF TG_OP = ''UPDATE'' AND NEW.rating = OLD.rating THEN
        RETURN NULL;
    END IF;
    IF TG_OP <> ''INSERT'' THEN
        PERFORM rating_counts_step(OLD.game, OLD.variant, 0, OLD.rating, -1);
    END IF;
    IF TG_OP <> ''DELETE'' THEN
        PERFORM rating_counts_step(NEW.game, NEW.variant, 0, NEW.rating, 1);
    END IF;
    RETURN NULL;
END
';

CREATE FUNCTION rating_members_counts() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
    IF TG_OP = ''UPDATE'' AND NEW.rating = OLD.rating THEN
        RETURN NULL;
    END IF;
    IF TG_OP <> ''INSERT'' THEN
        PERFORM rating_counts_step(OLD.game, OLD.variant, OLD.guild_id, OLD.rating, -1);
    END IF;
    IF TG_OP <> ''DELETE'' THEN
        PERFORM rating_counts_step(NEW.game, NEW.variant, NEW.guild_id, NEW.rating, 1);
    END IF;
    RETURN NULL;
END
';

-- (CREATE OR REPLACE TRIGGER: the statement splitter would read CREATE TRIGGER as
-- SQLite's, which ends at END.)
CREATE OR REPLACE TRIGGER ratings_counts AFTER INSERT OR UPDATE OF rating OR DELETE ON ratings
    FOR EACH ROW EXECUTE FUNCTION ratings_counts();

CREATE OR REPLACE TRIGGER rating_members_counts AFTER INSERT OR UPDATE OF rating OR DELETE
    ON rating_members FOR EACH ROW EXECUTE FUNCTION rating_members_counts();

INSERT INTO rating_counts (game, variant, guild_id, rating, n)
SELECT game, variant, 0, rating, count(*) FROM ratings
GROUP BY game, variant, rating;

INSERT INTO rating_counts (game, variant, guild_id, rating, n)
SELECT game, variant, guild_id, rating, count(*) FROM rating_members
GROUP BY game, variant, guild_id, rating;
