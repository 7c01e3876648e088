-- Dungeon Deck, schema version 14 (PostgreSQL): the name each rating row is listed by in its
-- tie group, in the board indexes. Mirrors migrations/sqlite/0014_rating_name_keys.sql.
ALTER TABLE ratings ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
ALTER TABLE rating_members ADD COLUMN name_key TEXT NOT NULL DEFAULT '';

UPDATE ratings SET name_key = p.name_key
FROM (SELECT user_id, CASE WHEN hidden = 1 THEN '' ELSE lower(name) END AS name_key
      FROM players) AS p
WHERE p.user_id = ratings.owner_id;
UPDATE rating_members SET name_key = lower(p.name)
FROM players AS p WHERE p.user_id = rating_members.owner_id;

DROP INDEX ratings_board;
CREATE INDEX ratings_board ON ratings (game, variant, rating DESC, name_key, owner_id);
DROP INDEX rating_members_board;
CREATE INDEX rating_members_board
    ON rating_members (guild_id, game, variant, rating DESC, name_key, owner_id);
CREATE INDEX ratings_owner ON ratings (owner_id);
CREATE INDEX rating_members_owner ON rating_members (owner_id);

CREATE FUNCTION players_rating_names() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
    UPDATE ratings SET name_key = CASE WHEN NEW.hidden = 1 THEN '''' ELSE lower(NEW.name) END
    WHERE owner_id = NEW.user_id;
    UPDATE rating_members SET name_key = lower(NEW.name) WHERE owner_id = NEW.user_id;
    RETURN NULL;
END
';

-- (CREATE OR REPLACE TRIGGER: the statement splitter would read CREATE TRIGGER as
-- SQLite's, which ends at END.)
CREATE OR REPLACE TRIGGER players_rating_names AFTER INSERT OR UPDATE OF name, hidden
    ON players FOR EACH ROW EXECUTE FUNCTION players_rating_names();
