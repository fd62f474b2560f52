-- 0005: one open table per channel, as store/sqlite/migrations/0005_one_open_table.sql.
-- open_channel is the table's channel while it is open (in the lobby or
-- played, not marked corrupt), NULL otherwise; a unique index holds it, a
-- trigger clears it when the table ends or is marked corrupt. Where earlier
-- versions let a channel get two open tables, the newest holds the channel.

ALTER TABLE tables ADD COLUMN open_channel TEXT COLLATE "C"; -- channel_id while open; NULL otherwise

UPDATE tables SET open_channel = channel_id
WHERE status IN ('lobby', 'playing') AND corrupt = '' AND channel_id <> ''
  AND id = (SELECT t2.id FROM tables t2
            WHERE t2.channel_id = tables.channel_id AND t2.status IN ('lobby', 'playing') AND t2.corrupt = ''
            ORDER BY t2.created_at DESC, t2.id DESC LIMIT 1);

CREATE UNIQUE INDEX tables_open_channel ON tables (open_channel) WHERE open_channel IS NOT NULL;

CREATE FUNCTION tables_close_channel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.open_channel IS NOT NULL AND (NEW.status NOT IN ('lobby', 'playing') OR NEW.corrupt <> '') THEN
        NEW.open_channel := NULL;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER tables_close_channel BEFORE UPDATE OF status, corrupt ON tables
FOR EACH ROW EXECUTE FUNCTION tables_close_channel();
