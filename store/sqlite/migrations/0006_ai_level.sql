-- 0006: the level of the AI players a table adds (/stolik open's ai option):
-- easy, normal or hard; '' for the host's default (ai_bot).
ALTER TABLE table_meta ADD COLUMN ai_level TEXT NOT NULL DEFAULT '';
