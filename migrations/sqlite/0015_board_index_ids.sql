-- Dungeon Deck, schema version 15: nothing to change in SQLite. PostgreSQL's day-board indexes
-- now hold the run's id (migrations/postgresql/0015_board_index_ids.sql), as SQLite's have
-- always held the rowid; the version is bumped here too, so both databases stay at the same
-- schema version.
SELECT 1;
