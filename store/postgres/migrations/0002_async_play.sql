-- 0002: games across days, as store/sqlite/migrations/0002_async_play.sql.
-- Deadlines and reminders, persisted votes, seat hand-overs (stand-ins,
-- vacant seats), threads, and the stand-in mark on results. A time that has
-- not come yet (a reminder not sent, a deadline not handled) is NULL where
-- SQLite stores ''.

-- Per-table settings of the Discord front end.
CREATE TABLE table_meta (
    table_id      TEXT COLLATE "C" NOT NULL PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    deadline_secs BIGINT           NOT NULL DEFAULT 0,     -- time per decision; 0: no deadline
    want_thread   BOOLEAN          NOT NULL DEFAULT FALSE, -- play in a thread once started
    thread_id     TEXT COLLATE "C" NOT NULL DEFAULT '',    -- the thread the game lives in
    standins      BOOLEAN          NOT NULL DEFAULT FALSE  -- an AI stood in for a player
);

CREATE INDEX table_meta_thread ON table_meta (thread_id) WHERE thread_id <> '';

-- Per-seat flags: vacant (anyone may take the seat) and standin (the seat
-- was played by an AI for a player at some point).
CREATE TABLE seat_meta (
    table_id TEXT COLLATE "C" NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat     INTEGER          NOT NULL,
    vacant   BOOLEAN          NOT NULL DEFAULT FALSE,
    standin  BOOLEAN          NOT NULL DEFAULT FALSE,
    PRIMARY KEY (table_id, seat)
);

-- One row per human seat that must act at a table with a deadline.
CREATE TABLE deadlines (
    table_id    TEXT COLLATE "C" NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        INTEGER          NOT NULL,
    started_at  TIMESTAMPTZ      NOT NULL,
    remind_at   TIMESTAMPTZ      NOT NULL,
    due_at      TIMESTAMPTZ      NOT NULL,
    reminded_at TIMESTAMPTZ,              -- the reminder before the deadline was sent; NULL: not yet
    expired_at  TIMESTAMPTZ,              -- the deadline passed and the vote was opened; NULL: not yet
    PRIMARY KEY (table_id, seat)
);

-- Votes: topic "abandon", or "stall:<seat>" for what to do about a stalled seat.
CREATE TABLE votes (
    table_id TEXT COLLATE "C" NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    topic    TEXT COLLATE "C" NOT NULL,
    voter    TEXT COLLATE "C" NOT NULL,
    choice   TEXT COLLATE "C" NOT NULL,
    at       TIMESTAMPTZ      NOT NULL,
    PRIMARY KEY (table_id, topic, voter)
);

ALTER TABLE results ADD COLUMN standin BOOLEAN NOT NULL DEFAULT FALSE; -- the seat had a stand-in

-- DM reminders are opt-in: off by default, and off for the users stored
-- before this version (no command could turn them on before it).
ALTER TABLE user_prefs ALTER COLUMN dm_reminders SET DEFAULT FALSE;
UPDATE user_prefs SET dm_reminders = FALSE;
