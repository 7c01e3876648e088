-- Dungeon Deck, schema version 8: each player's daily points per week and per month, kept as
-- the runs rank, so the week's and the month's boards (/leaderboard day:week, day:month) read
-- one row per player instead of adding up every daily of the period on every call.
--
-- A row holds one player's total over one period of one game and variant, in one scope:
-- guild_id 0 is everyone (the global board), any other the runs played in that server. A
-- period is a span ('week' or 'month') and its first day (the Monday, or the 1st), UTC.
-- The triggers add a daily the moment it ranks (a finished ranked run never changes after),
-- in the same transaction, so the totals are always the runs' own sums.
CREATE TABLE period_points (
    span     TEXT    NOT NULL CHECK (span IN ('week', 'month')),
    first    TEXT    NOT NULL,  -- YYYY-MM-DD: the period's first day
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    guild_id INTEGER NOT NULL,  -- 0: everyone
    owner_id INTEGER NOT NULL,
    total    INTEGER NOT NULL,
    days     INTEGER NOT NULL,
    PRIMARY KEY (span, first, game, variant, guild_id, owner_id)
);

-- A page of a period's board, its size, a rank: walked by total, the owner read from the index.
CREATE INDEX period_points_board
    ON period_points (span, first, game, variant, guild_id, total, owner_id);

CREATE TRIGGER runs_period_points_insert AFTER INSERT ON runs
WHEN NEW.kind = 'daily' AND NEW.ranked = 1
BEGIN
    INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
    SELECT s.span, s.first, NEW.game, NEW.variant, g.guild_id, NEW.owner_id, NEW.points, 1
    FROM (SELECT 'week' AS span,
                 date(NEW.day, '-' || ((CAST(strftime('%w', NEW.day) AS INTEGER) + 6) % 7)
                      || ' days') AS first
          UNION ALL SELECT 'month', substr(NEW.day, 1, 8) || '01') AS s,
         (SELECT 0 AS guild_id
          UNION ALL SELECT NEW.guild_id WHERE NEW.guild_id IS NOT NULL) AS g
    WHERE true
    ON CONFLICT (span, first, game, variant, guild_id, owner_id)
    DO UPDATE SET total = total + excluded.total, days = days + 1;
END;

CREATE TRIGGER runs_period_points_update AFTER UPDATE OF ranked ON runs
WHEN NEW.kind = 'daily' AND NEW.ranked = 1 AND OLD.ranked = 0
BEGIN
    INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
    SELECT s.span, s.first, NEW.game, NEW.variant, g.guild_id, NEW.owner_id, NEW.points, 1
    FROM (SELECT 'week' AS span,
                 date(NEW.day, '-' || ((CAST(strftime('%w', NEW.day) AS INTEGER) + 6) % 7)
                      || ' days') AS first
          UNION ALL SELECT 'month', substr(NEW.day, 1, 8) || '01') AS s,
         (SELECT 0 AS guild_id
          UNION ALL SELECT NEW.guild_id WHERE NEW.guild_id IS NOT NULL) AS g
    WHERE true
    ON CONFLICT (span, first, game, variant, guild_id, owner_id)
    DO UPDATE SET total = total + excluded.total, days = days + 1;
END;

-- The dailies ranked before this version: each span, everyone and per server.

INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
SELECT 'week', date(day, '-' || ((CAST(strftime('%w', day) AS INTEGER) + 6) % 7) || ' days'), game, variant, 0, owner_id, sum(points), count(*)
FROM runs WHERE kind = 'daily' AND ranked = 1
GROUP BY 2, 3, 4, 5, 6;

INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
SELECT 'week', date(day, '-' || ((CAST(strftime('%w', day) AS INTEGER) + 6) % 7) || ' days'), game, variant, guild_id, owner_id, sum(points), count(*)
FROM runs WHERE kind = 'daily' AND ranked = 1 AND guild_id IS NOT NULL
GROUP BY 2, 3, 4, 5, 6;

INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
SELECT 'month', substr(day, 1, 8) || '01', game, variant, 0, owner_id, sum(points), count(*)
FROM runs WHERE kind = 'daily' AND ranked = 1
GROUP BY 2, 3, 4, 5, 6;

INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
SELECT 'month', substr(day, 1, 8) || '01', game, variant, guild_id, owner_id, sum(points), count(*)
FROM runs WHERE kind = 'daily' AND ranked = 1 AND guild_id IS NOT NULL
GROUP BY 2, 3, 4, 5, 6;

-- The champions of each server's month: the record that a month's close was done once
-- (claimed, then posted or skipped, as daily_posts), and who was given the champion role.
CREATE TABLE month_closes (
    guild_id   INTEGER NOT NULL,
    month      TEXT    NOT NULL,  -- YYYY-MM
    status     TEXT    NOT NULL CHECK (status IN ('claimed', 'posted', 'skipped')),
    channel_id INTEGER,
    message_id INTEGER,
    note       TEXT,
    at         TEXT    NOT NULL,
    PRIMARY KEY (guild_id, month)
);

CREATE TABLE champion_roles (
    guild_id INTEGER NOT NULL,
    month    TEXT    NOT NULL,  -- YYYY-MM: the month they were champions of
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, month, user_id)
);
