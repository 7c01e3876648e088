-- Dungeon Deck, schema version 4: the board indexes carry the player, so that a page of a
-- board is found from the index alone.
--
-- A page's tie groups are ordered by the player's name, which lives in `players`: with the
-- owner in the index, the runs around a page are joined to their names without reading their
-- rows (a tie group can hold a thousand runs), and a server's minimum account age (an
-- `owner_id` bound) is checked in the index too. Only the page's own lines read `runs`.
-- Rebuilt under the same names, so nothing that names them changes.

DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (game, variant, day, score_key DESC, owner_id)
    WHERE kind = 'daily' AND ranked = 1;

DROP INDEX runs_guild_board;
CREATE INDEX runs_guild_board ON runs (guild_id, game, variant, day, score_key DESC, owner_id)
    WHERE kind = 'daily' AND ranked = 1;
