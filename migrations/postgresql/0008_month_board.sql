-- Dungeon Deck, schema version 8 (PostgreSQL): each player's daily points per week and per
-- month, kept as the runs rank, and the record of each server's month close. Mirrors
-- migrations/sqlite/0008_month_board.sql (see it for why).
--
-- The migration runner splits statements at semicolons outside strings, with SQLite's rules:
-- so the trigger function's body is a quoted string (not dollar-quoted), and the trigger is
-- made with CREATE OR REPLACE (a plain CREATE TRIGGER would be read as SQLite's, up to END).
CREATE TABLE period_points (
    span     TEXT    NOT NULL CHECK (span IN ('week', 'month')),
    first    TEXT    NOT NULL,
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    guild_id BIGINT  NOT NULL,
    owner_id BIGINT  NOT NULL,
    total    BIGINT  NOT NULL,
    days     INTEGER NOT NULL,
    PRIMARY KEY (span, first, game, variant, guild_id, owner_id)
);

CREATE INDEX period_points_board
    ON period_points (span, first, game, variant, guild_id, total, owner_id);

CREATE FUNCTION runs_period_points() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
    IF NEW.kind = ''daily'' AND NEW.ranked = 1
       AND (TG_OP = ''INSERT'' OR OLD.ranked = 0) THEN
        INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
        SELECT s.span, s.first, NEW.game, NEW.variant, g.guild_id, NEW.owner_id, NEW.points, 1
        FROM (VALUES (''week'', to_char(date_trunc(''week'', NEW.day::date), ''YYYY-MM-DD'')),
                     (''month'', substr(NEW.day, 1, 8) || ''01'')) AS s (span, first),
             (SELECT 0::bigint AS guild_id
              UNION ALL SELECT NEW.guild_id WHERE NEW.guild_id IS NOT NULL) AS g
        ON CONFLICT (span, first, game, variant, guild_id, owner_id)
        DO UPDATE SET total = period_points.total + excluded.total,
                      days = period_points.days + 1;
    END IF;
    RETURN NULL;
END
';

CREATE OR REPLACE TRIGGER runs_period_points AFTER INSERT OR UPDATE OF ranked ON runs
    FOR EACH ROW EXECUTE FUNCTION runs_period_points();

-- The dailies ranked before this version: each span, everyone and per server.
INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
SELECT 'week', to_char(date_trunc('week', day::date), 'YYYY-MM-DD'), game, variant, 0, owner_id, sum(points), count(*)
FROM runs WHERE kind = 'daily' AND ranked = 1
GROUP BY to_char(date_trunc('week', day::date), 'YYYY-MM-DD'), game, variant, owner_id;

INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
SELECT 'week', to_char(date_trunc('week', day::date), 'YYYY-MM-DD'), game, variant, guild_id, owner_id, sum(points), count(*)
FROM runs WHERE kind = 'daily' AND ranked = 1 AND guild_id IS NOT NULL
GROUP BY to_char(date_trunc('week', day::date), 'YYYY-MM-DD'), game, variant, guild_id, owner_id;

INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
SELECT 'month', substr(day, 1, 8) || '01', game, variant, 0, owner_id, sum(points), count(*)
FROM runs WHERE kind = 'daily' AND ranked = 1
GROUP BY substr(day, 1, 8) || '01', game, variant, owner_id;

INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
SELECT 'month', substr(day, 1, 8) || '01', game, variant, guild_id, owner_id, sum(points), count(*)
FROM runs WHERE kind = 'daily' AND ranked = 1 AND guild_id IS NOT NULL
GROUP BY substr(day, 1, 8) || '01', game, variant, guild_id, owner_id;

CREATE TABLE month_closes (
    guild_id   BIGINT NOT NULL,
    month      TEXT   NOT NULL,
    status     TEXT   NOT NULL CHECK (status IN ('claimed', 'posted', 'skipped')),
    channel_id BIGINT,
    message_id BIGINT,
    note       TEXT,
    at         TEXT   NOT NULL,
    PRIMARY KEY (guild_id, month)
);

CREATE TABLE champion_roles (
    guild_id BIGINT NOT NULL,
    month    TEXT   NOT NULL,
    user_id  BIGINT NOT NULL,
    PRIMARY KEY (guild_id, month, user_id)
);
