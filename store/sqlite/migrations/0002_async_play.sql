-- 0002: games across days. Deadlines and reminders, persisted votes, seat
-- hand-overs (stand-ins, vacant seats), threads, and the stand-in mark on
-- results. Times are UTC text as in 0001; '' means "not yet".

-- Per-table settings of the Discord front end.
CREATE TABLE table_meta (
    table_id      TEXT    NOT NULL PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    deadline_secs INTEGER NOT NULL DEFAULT 0,  -- time per decision; 0: no deadline
    want_thread   INTEGER NOT NULL DEFAULT 0,  -- boolean: play in a thread once started
    thread_id     TEXT    NOT NULL DEFAULT '', -- the thread the game lives in
    standins      INTEGER NOT NULL DEFAULT 0   -- boolean: an AI stood in for a player
) STRICT;

CREATE INDEX table_meta_thread ON table_meta (thread_id) WHERE thread_id <> '';

-- Per-seat flags: vacant (anyone may take the seat) and standin (the seat
-- was played by an AI for a player at some point).
CREATE TABLE seat_meta (
    table_id TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    vacant   INTEGER NOT NULL DEFAULT 0,
    standin  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
) STRICT;

-- One row per human seat that must act at a table with a deadline.
CREATE TABLE deadlines (
    table_id    TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    remind_at   TEXT    NOT NULL,
    due_at      TEXT    NOT NULL,
    reminded_at TEXT    NOT NULL DEFAULT '', -- the reminder before the deadline was sent
    expired_at  TEXT    NOT NULL DEFAULT '', -- the deadline passed and the vote was opened
    PRIMARY KEY (table_id, seat)
) STRICT;

-- Votes: topic "abandon", or "stall:<seat>" for what to do about a stalled seat.
CREATE TABLE votes (
    table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    topic    TEXT NOT NULL,
    voter    TEXT NOT NULL,
    choice   TEXT NOT NULL,
    at       TEXT NOT NULL,
    PRIMARY KEY (table_id, topic, voter)
) STRICT;

ALTER TABLE results ADD COLUMN standin INTEGER NOT NULL DEFAULT 0; -- boolean: the seat had a stand-in

-- DM reminders are opt-in: rebuild user_prefs with dm_reminders off by
-- default (no command could turn them on before this version).
CREATE TABLE user_prefs_new (
    user_id      TEXT    NOT NULL PRIMARY KEY,
    lang         TEXT    NOT NULL DEFAULT '',
    dm_reminders INTEGER NOT NULL DEFAULT 0 -- boolean
) STRICT;
INSERT INTO user_prefs_new (user_id, lang, dm_reminders) SELECT user_id, lang, 0 FROM user_prefs;
DROP TABLE user_prefs;
ALTER TABLE user_prefs_new RENAME TO user_prefs;
