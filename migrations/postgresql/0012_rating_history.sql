-- Dungeon Deck, schema version 12 (PostgreSQL): each player's rating after every rated day.
-- Mirrors migrations/sqlite/0012_rating_history.sql.
CREATE TABLE rating_history (
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    owner_id BIGINT  NOT NULL,
    day      TEXT    COLLATE "C" NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    rating   INTEGER NOT NULL,
    PRIMARY KEY (game, variant, owner_id, day)
);

INSERT INTO rating_history (game, variant, owner_id, day, mu, sigma, rating)
SELECT game, variant, owner_id, last_day, mu, sigma, rating FROM ratings;
