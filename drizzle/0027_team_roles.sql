-- A merchant's team (issue 20): every user has a role, and a member of the team can invite others
-- by e-mail. Existing users are their merchant's only login, so they become its owners.
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'owner' NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('owner', 'admin', 'finance', 'developer', 'viewer'));
--> statement-breakpoint
-- A removed member keeps their row (withdrawals name who created and decided them) but can no
-- longer sign in, and their address is free again: for a new invitation or a sign-up.
ALTER TABLE "users" ADD COLUMN "removed_at" timestamp with time zone;
--> statement-breakpoint
DROP INDEX "users_email_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email")) WHERE "users"."removed_at" is null;
--> statement-breakpoint
-- An invitation is one more kind of e-mailed link (single use, hashed, expiring): it names the
-- merchant to join, the role to join with and who sent it.
ALTER TABLE "auth_tokens" DROP CONSTRAINT "auth_tokens_purpose_check";
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_purpose_check" CHECK ("auth_tokens"."purpose" in ('password_reset', 'sign_up', 'invitation'));
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "merchant_id" bigint;
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "role" text;
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "invited_by" bigint;
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_invitation_check" CHECK ("auth_tokens"."purpose" <> 'invitation' or ("auth_tokens"."merchant_id" is not null and "auth_tokens"."role" in ('owner', 'admin', 'finance', 'developer', 'viewer')));
--> statement-breakpoint
CREATE INDEX "auth_tokens_merchant_idx" ON "auth_tokens" USING btree ("merchant_id");
