-- 0001: the first schema. Times are UTC text in a fixed-width RFC 3339 form
-- with nanoseconds (sortable); seeds are uint64 values stored bit-cast as
-- INTEGER (int64).

CREATE TABLE tables (
    id         TEXT    NOT NULL PRIMARY KEY,
    game       TEXT    NOT NULL,
    options    TEXT    NOT NULL DEFAULT '{}', -- JSON object of k=v strings
    seats      INTEGER NOT NULL,              -- the seat count
    seed       INTEGER NOT NULL,              -- uint64 bit-cast to int64
    status     TEXT    NOT NULL,
    lang       TEXT    NOT NULL DEFAULT '',
    guild_id   TEXT    NOT NULL DEFAULT '',
    channel_id TEXT    NOT NULL DEFAULT '',
    message_id TEXT    NOT NULL DEFAULT '',
    created_by TEXT    NOT NULL DEFAULT '',
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
) STRICT;

CREATE INDEX tables_status ON tables (status);

CREATE TABLE seats (
    table_id TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    user_id  TEXT    NOT NULL DEFAULT '',
    name     TEXT    NOT NULL DEFAULT '',
    bot      TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, seat)
) STRICT;

CREATE INDEX seats_user ON seats (user_id) WHERE user_id <> '';

-- The action log: append-only. Entry n of a table is applied with the chance
-- source of step n+1.
CREATE TABLE actions (
    table_id TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    n        INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    action   TEXT    NOT NULL, -- canonical notation
    at       TEXT    NOT NULL,
    PRIMARY KEY (table_id, n)
) STRICT;

CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TABLE user_prefs (
    user_id      TEXT    NOT NULL PRIMARY KEY,
    lang         TEXT    NOT NULL DEFAULT '',
    dm_reminders INTEGER NOT NULL DEFAULT 1 -- boolean
) STRICT;

-- Finished games, one row per seat, for statistics.
CREATE TABLE results (
    table_id    TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     TEXT    NOT NULL DEFAULT '', -- '' for AI seats
    score       INTEGER NOT NULL,
    won         INTEGER NOT NULL DEFAULT 0,  -- boolean
    game        TEXT    NOT NULL,
    finished_at TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
) STRICT;

CREATE INDEX results_user ON results (user_id, game) WHERE user_id <> '';
CREATE INDEX results_game ON results (game, finished_at);
