-- Dungeon Deck, schema version 16: a player's runs are found by (owner_id, status) alone.
-- runs_by_owner also held updated_at, which every move sets, so every move rewrote the
-- index's entry as well as the row: more work in the write and one more page in its commit.
-- The only query that orders by updated_at (a player's unfinished runs, store/runs.py) sorts
-- the few runs a player is playing, which needs no index. Mirrors
-- migrations/postgresql/0016_owner_index_without_time.sql.
DROP INDEX runs_by_owner;
CREATE INDEX runs_by_owner ON runs (owner_id, status);
