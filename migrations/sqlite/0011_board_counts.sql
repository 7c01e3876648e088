-- Dungeon Deck, schema version 11: how many lines of each board hold each score, kept as the
-- runs rank, so a board's size, the rank of a line and the first score of a deep page are
-- sums over a board's distinct scores (a few hundred) instead of walks of its lines (a day's
-- global board holds 100,000 of them at 10,000,000 runs, a month's half a million).
--
-- board_counts: a day's board, per score_key; period_counts: a week's or a month's board
-- (period_points), per total. guild_id 0 is everyone's board, any other a server's. A board
-- with an account-age bound is not counted here: it is a server's (small), read from its runs.
CREATE TABLE board_counts (
    game      TEXT    NOT NULL,
    variant   TEXT    NOT NULL,
    day       TEXT    NOT NULL,
    guild_id  INTEGER NOT NULL,  -- 0: everyone
    score_key TEXT    NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (game, variant, day, guild_id, score_key)
);

CREATE TABLE period_counts (
    span     TEXT    NOT NULL,
    first    TEXT    NOT NULL,
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    guild_id INTEGER NOT NULL,  -- 0: everyone
    total    INTEGER NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (span, first, game, variant, guild_id, total)
);

-- A daily ranks once (as in 0008): on everyone's board, and on its server's.
CREATE TRIGGER runs_board_counts_insert AFTER INSERT ON runs
WHEN NEW.kind = 'daily' AND NEW.ranked = 1
BEGIN
    INSERT INTO board_counts (game, variant, day, guild_id, score_key, n)
    SELECT NEW.game, NEW.variant, NEW.day, g.guild_id, NEW.score_key, 1
    FROM (SELECT 0 AS guild_id
          UNION ALL SELECT NEW.guild_id WHERE NEW.guild_id IS NOT NULL) AS g
    WHERE true
    ON CONFLICT (game, variant, day, guild_id, score_key) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER runs_board_counts_update AFTER UPDATE OF ranked ON runs
WHEN NEW.kind = 'daily' AND NEW.ranked = 1 AND OLD.ranked = 0
BEGIN
    INSERT INTO board_counts (game, variant, day, guild_id, score_key, n)
    SELECT NEW.game, NEW.variant, NEW.day, g.guild_id, NEW.score_key, 1
    FROM (SELECT 0 AS guild_id
          UNION ALL SELECT NEW.guild_id WHERE NEW.guild_id IS NOT NULL) AS g
    WHERE true
    ON CONFLICT (game, variant, day, guild_id, score_key) DO UPDATE SET n = n + 1;
END;

-- A player's total moves from one count to another as their dailies add up.
CREATE TRIGGER period_points_counts_insert AFTER INSERT ON period_points
BEGIN
    INSERT INTO period_counts (span, first, game, variant, guild_id, total, n)
    VALUES (NEW.span, NEW.first, NEW.game, NEW.variant, NEW.guild_id, NEW.total, 1)
    ON CONFLICT (span, first, game, variant, guild_id, total) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER period_points_counts_update AFTER UPDATE OF total ON period_points
WHEN NEW.total <> OLD.total
BEGIN
    DELETE FROM period_counts
    WHERE span = OLD.span AND first = OLD.first AND game = OLD.game
      AND variant = OLD.variant AND guild_id = OLD.guild_id AND total = OLD.total AND n = 1;
    UPDATE period_counts SET n = n - 1
    WHERE span = OLD.span AND first = OLD.first AND game = OLD.game
      AND variant = OLD.variant AND guild_id = OLD.guild_id AND total = OLD.total;
    INSERT INTO period_counts (span, first, game, variant, guild_id, total, n)
    VALUES (NEW.span, NEW.first, NEW.game, NEW.variant, NEW.guild_id, NEW.total, 1)
    ON CONFLICT (span, first, game, variant, guild_id, total) DO UPDATE SET n = n + 1;
END;

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
