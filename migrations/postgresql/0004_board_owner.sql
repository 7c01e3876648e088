-- Dungeon Deck, schema version 4 (PostgreSQL): the board indexes carry the player, so that a
-- page of a board is found from the index alone. Mirrors migrations/sqlite/0004_board_owner.sql.

DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (game, variant, day, score_key DESC, owner_id)
    WHERE kind = 'daily' AND ranked = 1;

DROP INDEX runs_guild_board;
CREATE INDEX runs_guild_board ON runs (guild_id, game, variant, day, score_key DESC, owner_id)
    WHERE kind = 'daily' AND ranked = 1;
