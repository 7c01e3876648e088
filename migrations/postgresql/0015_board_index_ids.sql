-- Dungeon Deck, schema version 15 (PostgreSQL): the day boards' indexes hold the run's id.
-- A page's band (store/boards.py) ranks its tie groups from the index and the names alone and
-- only then reads the page's own runs by id; SQLite's indexes hold the rowid, so there the
-- band never read a table row, but PostgreSQL's did not hold the id and fetched the run of
-- every line of the band's tie groups (370 random reads for page 1 of a day's Donsol board at
-- 10,000,000 runs: 35 ms from a cold cache). With the id included, the band is an index-only
-- scan. Mirrors migrations/sqlite/0015_board_index_ids.sql (nothing to do there).
DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (game, variant, day, score_key DESC, owner_id) INCLUDE (id)
    WHERE kind = 'daily' AND ranked = 1;

DROP INDEX runs_guild_board;
CREATE INDEX runs_guild_board ON runs (guild_id, game, variant, day, score_key DESC, owner_id)
    INCLUDE (id) WHERE kind = 'daily' AND ranked = 1;
