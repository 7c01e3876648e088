-- Dungeon Deck, schema version 18 (PostgreSQL): a player's record in a game is read from
-- totals kept as runs end. Mirrors migrations/sqlite/0018_player_totals.sql (see it for why);
-- the trigger function is a quoted string for the migration runner (see 0008).
CREATE TABLE player_totals (
    owner_id BIGINT NOT NULL,
    game     TEXT   NOT NULL,
    variant  TEXT   NOT NULL,
    outcome  TEXT   NOT NULL,
    runs     BIGINT NOT NULL,
    best_key TEXT   COLLATE "C" NOT NULL,
    points   BIGINT NOT NULL,
    dailies  BIGINT NOT NULL,
    hinted   BIGINT NOT NULL,
    PRIMARY KEY (owner_id, game, variant, outcome)
);

CREATE FUNCTION runs_player_totals() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
    IF NEW.status <> ''playing'' AND (TG_OP = ''INSERT'' OR OLD.status = ''playing'') THEN
        INSERT INTO player_totals (owner_id, game, variant, outcome, runs, best_key, points,
                                   dailies, hinted)
        VALUES (NEW.owner_id, NEW.game, NEW.variant, coalesce(NEW.outcome, ''''), 1,
                NEW.score_key, NEW.points,
                CASE WHEN NEW.kind = ''daily'' THEN 1 ELSE 0 END, NEW.hinted)
        ON CONFLICT (owner_id, game, variant, outcome) DO UPDATE SET
            runs = player_totals.runs + 1,
            best_key = greatest(player_totals.best_key, excluded.best_key),
            points = player_totals.points + excluded.points,
            dailies = player_totals.dailies + excluded.dailies,
            hinted = player_totals.hinted + excluded.hinted;
    END IF;
    RETURN NULL;
END
';

CREATE OR REPLACE TRIGGER runs_player_totals AFTER INSERT OR UPDATE OF status ON runs
    FOR EACH ROW EXECUTE FUNCTION runs_player_totals();

-- The runs ended before this version.
INSERT INTO player_totals (owner_id, game, variant, outcome, runs, best_key, points, dailies,
                           hinted)
SELECT owner_id, game, variant, coalesce(outcome, ''), count(*), max(score_key), sum(points),
       sum(CASE WHEN kind = 'daily' THEN 1 ELSE 0 END), sum(hinted)
FROM runs
WHERE status <> 'playing'
GROUP BY owner_id, game, variant, coalesce(outcome, '');
