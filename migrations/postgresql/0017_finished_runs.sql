-- Dungeon Deck, schema version 17 (PostgreSQL): a finished run's result card compares it
-- with the player's earlier runs of its game and variant without reading them all. Mirrors
-- migrations/sqlite/0017_finished_runs.sql (see it for why); the trigger function is a quoted
-- string for the migration runner (see 0008).
--
-- Here the count is taken by the upsert itself, before the row is written: a second process
-- ending a run of the same player, game and variant waits at the counter's row for the first
-- to commit, and then counts on from it, so two runs never get the same prior_runs.
ALTER TABLE runs ADD COLUMN prior_runs BIGINT;

CREATE TABLE finished_runs (
    owner_id BIGINT NOT NULL,
    game     TEXT   NOT NULL,
    variant  TEXT   NOT NULL,
    runs     BIGINT NOT NULL,
    PRIMARY KEY (owner_id, game, variant)
);

CREATE FUNCTION runs_finished() RETURNS trigger LANGUAGE plpgsql AS '
DECLARE
    counted BIGINT;
BEGIN
    IF NEW.status <> ''playing'' AND (TG_OP = ''INSERT'' OR OLD.status = ''playing'') THEN
        INSERT INTO finished_runs (owner_id, game, variant, runs)
        VALUES (NEW.owner_id, NEW.game, NEW.variant, 1)
        ON CONFLICT (owner_id, game, variant)
        DO UPDATE SET runs = finished_runs.runs + 1
        RETURNING runs INTO counted;
        NEW.prior_runs := counted - 1;
    END IF;
    RETURN NEW;
END
';

CREATE OR REPLACE TRIGGER runs_finished BEFORE INSERT OR UPDATE OF status ON runs
    FOR EACH ROW EXECUTE FUNCTION runs_finished();

-- The runs ended before this version.
INSERT INTO finished_runs (owner_id, game, variant, runs)
SELECT owner_id, game, variant, count(*) FROM runs
WHERE status <> 'playing'
GROUP BY owner_id, game, variant;

CREATE INDEX runs_player_best ON runs (owner_id, game, variant, score_key DESC, finished_at, id)
WHERE status <> 'playing';
