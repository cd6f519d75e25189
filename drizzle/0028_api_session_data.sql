ALTER TABLE "soap_sessions" ADD COLUMN "data" jsonb DEFAULT '{}'::jsonb NOT NULL;
