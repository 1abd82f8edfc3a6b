-- Announces every change that can turn an API key away (revoked, its secret or owner changed,
-- deleted, its merchant's status changed or deleted, either table truncated) on one channel, so
-- each server's cache of keys forgets what it holds (docs/api.md#authentication). One
-- notification per statement: a listener forgets every key it holds, whichever changed.
CREATE FUNCTION "servicepay_announce_key_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('servicepay_api_key_changes', 'changed');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "api_keys_announce_change" AFTER UPDATE OF "revoked_at", "secret_hash", "merchant_id", "key" OR DELETE OR TRUNCATE ON "api_keys" FOR EACH STATEMENT EXECUTE FUNCTION "servicepay_announce_key_change"();--> statement-breakpoint
CREATE TRIGGER "merchants_announce_change" AFTER UPDATE OF "status", "id" OR DELETE OR TRUNCATE ON "merchants" FOR EACH STATEMENT EXECUTE FUNCTION "servicepay_announce_key_change"();
