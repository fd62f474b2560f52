-- 0003: integrity, as store/sqlite/migrations/0003_log_len.sql. Every table records
-- the length of its log, so that a log that lost rows (a deletion behind the
-- store's back, a restore that missed rows) is refused instead of being
-- served short; a table found unusable can be marked corrupt, with the
-- reason, and is then neither loaded nor resumed. The probe table holds the
-- one row Open writes to prove that the database can be written.

ALTER TABLE tables ADD COLUMN log_len INTEGER NOT NULL DEFAULT 0;                -- entries in the table's log
ALTER TABLE tables ADD COLUMN corrupt TEXT COLLATE "C" NOT NULL DEFAULT '';      -- why the table is unusable; '' = healthy

UPDATE tables SET log_len = (SELECT COUNT(*) FROM actions WHERE actions.table_id = tables.id);

-- SQLite raises log_len with a trigger on every inserted row. Here the
-- append raises it itself, in the statement that inserts the entry: the
-- guard UPDATE tables SET log_len = log_len + 1 WHERE id = $1 AND log_len = $2
-- takes the table's row lock, so that of two writers (in one process or in
-- several) appending the same entry exactly one matches and the other finds
-- the new length and inserts nothing. What the trigger guaranteed for rows
-- written by other tools -- that the recorded length covers them -- this
-- deferred constraint trigger enforces: a transaction that leaves an entry
-- at or beyond its healthy table's recorded length is refused at commit.
-- Nothing lowers the length: rows that disappear make the log shorter than
-- recorded.
CREATE FUNCTION actions_within_log_len() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    len INTEGER;
    bad TEXT;
BEGIN
    SELECT log_len, corrupt INTO len, bad FROM tables WHERE id = NEW.table_id;
    IF bad = '' AND NEW.n >= len THEN
        RAISE EXCEPTION 'entry % of table % is beyond its recorded log length %', NEW.n, NEW.table_id, len
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER actions_within_log_len AFTER INSERT ON actions
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION actions_within_log_len();

CREATE TABLE probe (
    id INTEGER     NOT NULL PRIMARY KEY CHECK (id = 1),
    at TIMESTAMPTZ NOT NULL -- when a store last opened the database for writing
);
