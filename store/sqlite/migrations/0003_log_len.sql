-- 0003: integrity. Every table records the length of its log, so that a log
-- that lost rows (a deletion behind the store's back, a damaged page, an
-- index that no longer finds them) is refused instead of being served short;
-- a table found unusable can be marked corrupt, with the reason, and is then
-- neither loaded nor resumed. The probe table holds the one row Open writes
-- to prove that the database can be written.

ALTER TABLE tables ADD COLUMN log_len INTEGER NOT NULL DEFAULT 0; -- entries in the table's log
ALTER TABLE tables ADD COLUMN corrupt TEXT NOT NULL DEFAULT '';   -- why the table is unusable; '' = healthy

UPDATE tables SET log_len = (SELECT COUNT(*) FROM actions WHERE actions.table_id = tables.id);

-- The length follows every row inserted into a log, in the inserting
-- transaction: the store's appends, and also rows written by other tools.
-- Nothing lowers it: rows that disappear make the log shorter than recorded.
CREATE TRIGGER actions_log_len AFTER INSERT ON actions
BEGIN
    UPDATE tables SET log_len = log_len + 1 WHERE id = NEW.table_id;
END;

CREATE TABLE probe (
    id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    at TEXT    NOT NULL -- when a store last opened the database for writing
) STRICT;
