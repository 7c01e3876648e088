-- Dungeon Deck, schema version 11 (PostgreSQL): how many lines of each board hold each
-- score, kept as the runs rank. Mirrors migrations/sqlite/0011_board_counts.sql (see it for
-- why); the trigger functions are quoted strings for the migration runner (see 0008).
CREATE TABLE board_counts (
    game      TEXT   NOT NULL,
    variant   TEXT   NOT NULL,
    day       TEXT   NOT NULL,
    guild_id  BIGINT NOT NULL,
    score_key TEXT   NOT NULL,
    n         BIGINT NOT NULL,
    PRIMARY KEY (game, variant, day, guild_id, score_key)
);

CREATE TABLE period_counts (
    span     TEXT   NOT NULL,
    first    TEXT   NOT NULL,
    game     TEXT   NOT NULL,
    variant  TEXT   NOT NULL,
    guild_id BIGINT NOT NULL,
    total    BIGINT NOT NULL,
    n        BIGINT NOT NULL,
    PRIMARY KEY (span, first, game, variant, guild_id, total)
);

CREATE FUNCTION runs_board_counts() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
    IF NEW.kind = ''daily'' AND NEW.ranked = 1
       AND (TG_OP = ''INSERT'' OR OLD.ranked = 0) THEN
        INSERT INTO board_counts (game, variant, day, guild_id, score_key, n)
        SELECT NEW.game, NEW.variant, NEW.day, g.guild_id, NEW.score_key, 1
        FROM (SELECT 0::bigint AS guild_id
              UNION ALL SELECT NEW.guild_id WHERE NEW.guild_id IS NOT NULL) AS g
        ON CONFLICT (game, variant, day, guild_id, score_key)
        DO UPDATE SET n = board_counts.n + 1;
    END IF;
    RETURN NULL;
END
';

CREATE OR REPLACE TRIGGER runs_board_counts AFTER INSERT OR UPDATE OF ranked ON runs
    FOR EACH ROW EXECUTE FUNCTION runs_board_counts();

CREATE FUNCTION period_points_counts() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
    IF TG_OP = ''UPDATE'' THEN
        IF NEW.total = OLD.total THEN
            RETURN NULL;
        END IF;
        DELETE FROM period_counts
        WHERE span = OLD.span AND first = OLD.first AND game = OLD.game
          AND variant = OLD.variant AND guild_id = OLD.guild_id AND total = OLD.total
          AND n = 1;
        UPDATE period_counts SET n = n - 1
        WHERE span = OLD.span AND first = OLD.first AND game = OLD.game
          AND variant = OLD.variant AND guild_id = OLD.guild_id AND total = OLD.total;
    END IF;
    INSERT INTO period_counts (span, first, game, variant, guild_id, total, n)
    VALUES (NEW.span, NEW.first, NEW.game, NEW.variant, NEW.guild_id, NEW.total, 1)
    ON CONFLICT (span, first, game, variant, guild_id, total)
    DO UPDATE SET n = period_counts.n + 1;
    RETURN NULL;
END
';

CREATE OR REPLACE TRIGGER period_points_counts AFTER INSERT OR UPDATE OF total
    ON period_points FOR EACH ROW EXECUTE FUNCTION period_points_counts();

-- The boards ranked before this version.
INSERT INTO board_counts (game, variant, day, guild_id, score_key, n)
SELECT game, variant, day, 0, score_key, count(*) FROM runs
WHERE kind = 'daily' AND ranked = 1
GROUP BY game, variant, day, score_key;

INSERT INTO board_counts (game, variant, day, guild_id, score_key, n)
SELECT game, variant, day, guild_id, score_key, count(*) FROM runs
WHERE kind = 'daily' AND ranked = 1 AND guild_id IS NOT NULL
GROUP BY game, variant, day, guild_id, score_key;

INSERT INTO period_counts (span, first, game, variant, guild_id, total, n)
SELECT span, first, game, variant, guild_id, total, count(*) FROM period_points
GROUP BY span, first, game, variant, guild_id, total;
