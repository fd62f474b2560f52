-- 0004: several processes on one database. A deadline (its reminder and its
-- expiry) is handled by the one process that claimed it: claimed_by names
-- the process, claimed_until is when its lease runs out; a claim whose lease
-- passed (the process died) may be taken by another. '' = not claimed.
-- rev counts the changes to a table's record (Update, MarkCorrupt), so that a
-- process that keeps the table in memory notices another's change by reading
-- log_len and rev alone.

ALTER TABLE deadlines ADD COLUMN claimed_by    TEXT NOT NULL DEFAULT ''; -- the claiming process; '' = none
ALTER TABLE deadlines ADD COLUMN claimed_until TEXT NOT NULL DEFAULT ''; -- when the claim's lease runs out

ALTER TABLE tables ADD COLUMN rev INTEGER NOT NULL DEFAULT 0; -- changes to the record
