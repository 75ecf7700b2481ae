-- A key's scope: whether it may move money (withdrawals and exchanges) through /api/v2. Developers
-- manage keys but may not create payouts, so a key they create must not move money either. Keys
-- from before scopes keep full rights (the column is added as true), and from now on a key moves
-- money only when created so (the default becomes false).
ALTER TABLE "api_keys" ADD COLUMN "can_move_money" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "can_move_money" SET DEFAULT false;--> statement-breakpoint
-- Who created the key (null: the operator CLI, a merchant created by the operator, or a key from
-- before this column). Keys outlive a removed member: they belong to the merchant's integration.
ALTER TABLE "api_keys" ADD COLUMN "created_by" bigint;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
