ALTER TABLE "api_keys" ADD COLUMN "read_only" boolean DEFAULT false NOT NULL;
