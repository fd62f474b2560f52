-- 0005: one open table per channel, held by the database: two /stolik open
-- at once (in one process or in two) make one table. open_channel is the
-- table's channel while it is open (in the lobby or played, not marked
-- corrupt), NULL otherwise; a unique index holds it, a trigger clears it when
-- the table ends or is marked corrupt. Where earlier versions let a channel
-- get two open tables, the newest holds the channel.

ALTER TABLE tables ADD COLUMN open_channel TEXT; -- channel_id while open; NULL otherwise

UPDATE tables SET open_channel = channel_id
WHERE status IN ('lobby', 'playing') AND corrupt = '' AND channel_id <> ''
  AND id = (SELECT t2.id FROM tables t2
            WHERE t2.channel_id = tables.channel_id AND t2.status IN ('lobby', 'playing') AND t2.corrupt = ''
            ORDER BY t2.created_at DESC, t2.id DESC LIMIT 1);

CREATE UNIQUE INDEX tables_open_channel ON tables (open_channel) WHERE open_channel IS NOT NULL;

CREATE TRIGGER tables_close_channel AFTER UPDATE OF status, corrupt ON tables
WHEN NEW.open_channel IS NOT NULL AND (NEW.status NOT IN ('lobby', 'playing') OR NEW.corrupt <> '')
BEGIN
    UPDATE tables SET open_channel = NULL WHERE id = NEW.id;
END;
