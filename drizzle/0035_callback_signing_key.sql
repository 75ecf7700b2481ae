-- Callbacks are signed by a key chosen for them, never by whichever key was created last
-- (docs/decisions/callback-signing-key.md). A transaction records the API key whose request
-- created it (null: the dashboard or Kassa itself); a permanent address records the key that took
-- it, and its deposits follow that key.
ALTER TABLE "transactions" ADD COLUMN "api_key_id" bigint;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD COLUMN "api_key_id" bigint;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- A rolled key names the key that replaced it: callbacks of its transactions follow the roll.
ALTER TABLE "api_keys" ADD COLUMN "replaced_by_id" bigint;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_replaced_by_id_api_keys_id_fk" FOREIGN KEY ("replaced_by_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Rolls from before this column are read back from their audit entries ("pk_old → pk_new; …").
UPDATE "api_keys" AS "old" SET "replaced_by_id" = "new"."id"
  FROM "audit_entries" AS "a", "api_keys" AS "new"
  WHERE "a"."action" = 'api_key_rolled' AND "a"."merchant_id" = "old"."merchant_id"
    AND "new"."merchant_id" = "old"."merchant_id"
    AND split_part("a"."detail", ';', 1) = "old"."key" || ' → ' || "new"."key";--> statement-breakpoint
-- The merchant's designated callback key: it signs the callbacks of transactions made in the
-- dashboard or by Kassa, and of those whose own key is gone. Chosen by an owner on the Callbacks page.
ALTER TABLE "merchants" ADD COLUMN "callback_key_id" bigint;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_callback_key_id_api_keys_id_fk" FOREIGN KEY ("callback_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Existing merchants: their newest usable key that may move money, the key that signed their
-- callbacks until now in the common case of one full key. None such: none designated, and the
-- Callbacks page asks an owner to choose.
UPDATE "merchants" AS "m" SET "callback_key_id" = (
  SELECT "k"."id" FROM "api_keys" AS "k"
  WHERE "k"."merchant_id" = "m"."id" AND "k"."revoked_at" IS NULL AND "k"."can_move_money"
    AND ("k"."expires_at" IS NULL OR "k"."expires_at" > now())
  ORDER BY "k"."id" DESC LIMIT 1);
