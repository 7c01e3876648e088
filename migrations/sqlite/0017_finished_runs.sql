-- Dungeon Deck, schema version 17: a finished run's result card compares it with the player's
-- earlier runs of its game and variant without reading them all.
--
-- The card says how many runs came before and the best of them. Both were aggregates over
-- every finished run of the player's (a count and a max, row by row through the table): a
-- player with 20,000 runs of a game paid milliseconds for each card, and on the write that
-- ends a run, which reads them, every other click of the process waited as long.
--
-- finished_runs: how many runs each player has ended, per game and variant, kept as runs end.
-- runs.prior_runs: that count as it stood when the run ended (NULL: ended before this
-- version, or still being played). runs_player_best: a player's ended runs of a game and
-- variant by score, best first, so the best before a run is the first entry before it.
-- Mirrors migrations/postgresql/0017_finished_runs.sql.
ALTER TABLE runs ADD COLUMN prior_runs INTEGER;

CREATE TABLE finished_runs (
    owner_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    runs     INTEGER NOT NULL,
    PRIMARY KEY (owner_id, game, variant)
) WITHOUT ROWID;

-- A run ends once (status leaves 'playing'), or is stored ended (a deal with no move to make).
CREATE TRIGGER runs_finished_insert AFTER INSERT ON runs
WHEN NEW.status <> 'playing'
BEGIN
    UPDATE runs SET prior_runs = coalesce((
        SELECT runs FROM finished_runs
        WHERE owner_id = NEW.owner_id AND game = NEW.game AND variant = NEW.variant
    ), 0) WHERE id = NEW.id;
    INSERT INTO finished_runs (owner_id, game, variant, runs)
    VALUES (NEW.owner_id, NEW.game, NEW.variant, 1)
    ON CONFLICT (owner_id, game, variant) DO UPDATE SET runs = runs + 1;
END;

CREATE TRIGGER runs_finished_update AFTER UPDATE OF status ON runs
WHEN OLD.status = 'playing' AND NEW.status <> 'playing'
BEGIN
    UPDATE runs SET prior_runs = coalesce((
        SELECT runs FROM finished_runs
        WHERE owner_id = NEW.owner_id AND game = NEW.game AND variant = NEW.variant
    ), 0) WHERE id = NEW.id;
    INSERT INTO finished_runs (owner_id, game, variant, runs)
    VALUES (NEW.owner_id, NEW.game, NEW.variant, 1)
    ON CONFLICT (owner_id, game, variant) DO UPDATE SET runs = runs + 1;
END;

-- The runs ended before this version.
INSERT INTO finished_runs (owner_id, game, variant, runs)
SELECT owner_id, game, variant, count(*) FROM runs
WHERE status <> 'playing'
GROUP BY owner_id, game, variant;

CREATE INDEX runs_player_best ON runs (owner_id, game, variant, score_key DESC, finished_at, id)
WHERE status <> 'playing';
