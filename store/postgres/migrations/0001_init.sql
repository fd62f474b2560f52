-- 0001: the first schema: store/sqlite/migrations/0001_init.sql in PostgreSQL's
-- types, with the same tables, columns and meaning. Times are timestamptz
-- (UTC; PostgreSQL keeps microseconds where the SQLite store keeps
-- nanoseconds); seeds are uint64 values stored bit-cast as BIGINT; booleans
-- are BOOLEAN; every text column sorts by its bytes (COLLATE "C"), as
-- SQLite's BINARY collation does, whatever the database's locale.

CREATE TABLE tables (
    id         TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    game       TEXT COLLATE "C" NOT NULL,
    options    TEXT COLLATE "C" NOT NULL DEFAULT '{}', -- JSON object of k=v strings, as written
    seats      INTEGER          NOT NULL,              -- the seat count
    seed       BIGINT           NOT NULL,              -- uint64 bit-cast to int64
    status     TEXT COLLATE "C" NOT NULL,
    lang       TEXT COLLATE "C" NOT NULL DEFAULT '',
    guild_id   TEXT COLLATE "C" NOT NULL DEFAULT '',
    channel_id TEXT COLLATE "C" NOT NULL DEFAULT '',
    message_id TEXT COLLATE "C" NOT NULL DEFAULT '',
    created_by TEXT COLLATE "C" NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ      NOT NULL,
    updated_at TIMESTAMPTZ      NOT NULL
);

CREATE INDEX tables_status ON tables (status);

CREATE TABLE seats (
    table_id TEXT COLLATE "C" NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat     INTEGER          NOT NULL,
    kind     TEXT COLLATE "C" NOT NULL,
    user_id  TEXT COLLATE "C" NOT NULL DEFAULT '',
    name     TEXT COLLATE "C" NOT NULL DEFAULT '',
    bot      TEXT COLLATE "C" NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX seats_user ON seats (user_id) WHERE user_id <> '';

-- The action log: append-only. Entry n of a table is applied with the chance
-- source of step n+1.
CREATE TABLE actions (
    table_id TEXT COLLATE "C" NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    n        INTEGER          NOT NULL,
    seat     INTEGER          NOT NULL,
    action   TEXT COLLATE "C" NOT NULL, -- canonical notation
    at       TIMESTAMPTZ      NOT NULL,
    PRIMARY KEY (table_id, n)
);

CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'actions are append-only';
END
$$;

CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_append_only();

CREATE TABLE user_prefs (
    user_id      TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    lang         TEXT COLLATE "C" NOT NULL DEFAULT '',
    dm_reminders BOOLEAN          NOT NULL DEFAULT TRUE
);

-- Finished games, one row per seat, for statistics.
CREATE TABLE results (
    table_id    TEXT COLLATE "C" NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        INTEGER          NOT NULL,
    user_id     TEXT COLLATE "C" NOT NULL DEFAULT '', -- '' for AI seats
    score       INTEGER          NOT NULL,
    won         BOOLEAN          NOT NULL DEFAULT FALSE,
    game        TEXT COLLATE "C" NOT NULL,
    finished_at TIMESTAMPTZ      NOT NULL,
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX results_user ON results (user_id, game) WHERE user_id <> '';
CREATE INDEX results_game ON results (game, finished_at);
