-- Dungeon Deck, schema version 7: the week's board (/leaderboard day:week) from indexes alone.
--
-- A week's board adds up each player's points over seven days of ranked dailies. With the
-- player and the points in the index, the sums are read from the index without touching a
-- run's row (at 1,000,000 dailies, a global Tomb week went from ~115 ms to ~65 ms a page on
-- SQLite). Partial like the day boards: a run enters only once it is finished and ranked, so
-- moves of runs in play do not maintain them.
CREATE INDEX runs_week ON runs (game, variant, day, owner_id, points)
    WHERE kind = 'daily' AND ranked = 1;
CREATE INDEX runs_guild_week ON runs (guild_id, game, variant, day, owner_id, points)
    WHERE kind = 'daily' AND ranked = 1;
