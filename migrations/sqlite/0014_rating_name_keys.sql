-- Dungeon Deck, schema version 14: the rating boards' tie groups in their index. Ratings tie a
-- great deal (a day of thousands of players moves each rating by a point or two: at
-- 10,000,000 runs everyone's Donsol board holds 126,000 players at 999), and equal ratings
-- are listed by name, so a page inside a tie group joined every player of the group to their
-- name and sorted them all. Each rating row now carries the name it is listed by (lower
-- case, as the boards order it; on everyone's board '' for a player who chose not to be
-- named there), kept by the triggers below when a player's name or choice changes, and the
-- board indexes hold it after the rating: a page is a walk of the index to its first line.
ALTER TABLE ratings ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
ALTER TABLE rating_members ADD COLUMN name_key TEXT NOT NULL DEFAULT '';

UPDATE ratings SET name_key = coalesce((
    SELECT CASE WHEN p.hidden = 1 THEN '' ELSE lower(p.name) END
    FROM players AS p WHERE p.user_id = ratings.owner_id), '');
UPDATE rating_members SET name_key = coalesce((
    SELECT lower(p.name) FROM players AS p WHERE p.user_id = rating_members.owner_id), '');

DROP INDEX ratings_board;
CREATE INDEX ratings_board ON ratings (game, variant, rating DESC, name_key, owner_id);
DROP INDEX rating_members_board;
CREATE INDEX rating_members_board
    ON rating_members (guild_id, game, variant, rating DESC, name_key, owner_id);
-- A player's rows, for the triggers.
CREATE INDEX ratings_owner ON ratings (owner_id);
CREATE INDEX rating_members_owner ON rating_members (owner_id);

CREATE TRIGGER players_rating_names_insert AFTER INSERT ON players
BEGIN
    UPDATE ratings SET name_key = CASE WHEN NEW.hidden = 1 THEN '' ELSE lower(NEW.name) END
    WHERE owner_id = NEW.user_id;
    UPDATE rating_members SET name_key = lower(NEW.name) WHERE owner_id = NEW.user_id;
END;

CREATE TRIGGER players_rating_names_update AFTER UPDATE OF name, hidden ON players
BEGIN
    UPDATE ratings SET name_key = CASE WHEN NEW.hidden = 1 THEN '' ELSE lower(NEW.name) END
    WHERE owner_id = NEW.user_id;
    UPDATE rating_members SET name_key = lower(NEW.name) WHERE owner_id = NEW.user_id;
END;
