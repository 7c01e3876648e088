-- Dungeon Deck, schema version 18: a player's record in a game (/stats: runs, wins, best,
-- average points, dailies, hints) is read from totals kept as runs end, not added up from
-- every run the player ever ended: with 20,000 runs of a game behind a player it took 31 ms of
-- a read connection, and grew with every run.
--
-- player_totals: a player's ended runs of a game and variant that ended with one outcome (''
-- for none): how many, the best score_key among them, their points, how many were dailies
-- and how many used a hint. An ended run never changes again, so its totals are final when
-- it ends (kept at the same moment as finished_runs, migration 0017). Mirrors
-- migrations/postgresql/0018_player_totals.sql.
CREATE TABLE player_totals (
    owner_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    outcome  TEXT    NOT NULL,
    runs     INTEGER NOT NULL,
    best_key TEXT    NOT NULL,
    points   INTEGER NOT NULL,
    dailies  INTEGER NOT NULL,
    hinted   INTEGER NOT NULL,
    PRIMARY KEY (owner_id, game, variant, outcome)
) WITHOUT ROWID;

CREATE TRIGGER runs_player_totals_insert AFTER INSERT ON runs
WHEN NEW.status <> 'playing'
BEGIN
    INSERT INTO player_totals (owner_id, game, variant, outcome, runs, best_key, points,
                               dailies, hinted)
    VALUES (NEW.owner_id, NEW.game, NEW.variant, coalesce(NEW.outcome, ''), 1, NEW.score_key,
            NEW.points, CASE WHEN NEW.kind = 'daily' THEN 1 ELSE 0 END, NEW.hinted)
    ON CONFLICT (owner_id, game, variant, outcome) DO UPDATE SET
        runs = runs + 1, best_key = max(best_key, excluded.best_key),
        points = points + excluded.points, dailies = dailies + excluded.dailies,
        hinted = hinted + excluded.hinted;
END;

CREATE TRIGGER runs_player_totals_update AFTER UPDATE OF status ON runs
WHEN OLD.status = 'playing' AND NEW.status <> 'playing'
BEGIN
    INSERT INTO player_totals (owner_id, game, variant, outcome, runs, best_key, points,
                               dailies, hinted)
    VALUES (NEW.owner_id, NEW.game, NEW.variant, coalesce(NEW.outcome, ''), 1, NEW.score_key,
            NEW.points, CASE WHEN NEW.kind = 'daily' THEN 1 ELSE 0 END, NEW.hinted)
    ON CONFLICT (owner_id, game, variant, outcome) DO UPDATE SET
        runs = runs + 1, best_key = max(best_key, excluded.best_key),
        points = points + excluded.points, dailies = dailies + excluded.dailies,
        hinted = hinted + excluded.hinted;
END;

-- The runs ended before this version.
INSERT INTO player_totals (owner_id, game, variant, outcome, runs, best_key, points, dailies,
                           hinted)
SELECT owner_id, game, variant, coalesce(outcome, ''), count(*), max(score_key), sum(points),
       sum(CASE WHEN kind = 'daily' THEN 1 ELSE 0 END), sum(hinted)
FROM runs
WHERE status <> 'playing'
GROUP BY owner_id, game, variant, coalesce(outcome, '');
