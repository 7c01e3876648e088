-- Dungeon Deck, schema version 12: each player's rating after every rated day, for the trend
-- on the stats card and in /stats ("rating 1234 ▲ 56 this month").
--
-- One row per player, game, variant and rated day the player played: openskill's mu and
-- sigma after the day, and the rating shown. Written in the transaction that rates the day
-- (store/ratings.py: put_ratings), whose claim of the day in rated_days makes it once; the
-- key makes a second row for a day impossible. `python -m bot ratings --recompute` rebuilds
-- it with the ratings. The key serves a player's trend (a game, variant and player, by day).
CREATE TABLE rating_history (
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    owner_id INTEGER NOT NULL,
    day      TEXT    NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    rating   INTEGER NOT NULL,
    PRIMARY KEY (game, variant, owner_id, day)
) WITHOUT ROWID;

-- What is known of the days rated before this version: each player's rating after their
-- last rated day (exact). The recompute command fills in the earlier days.
INSERT INTO rating_history (game, variant, owner_id, day, mu, sigma, rating)
SELECT game, variant, owner_id, last_day, mu, sigma, rating FROM ratings;
