-- Links Kassa e-mails to finish an action without a session (issue 18): a password reset, a
-- sign-up's confirmation. Only the SHA-256 of the token is kept, so a copy of the database does not
-- hold usable links; used_at makes each link single use; expires_at bounds its life (30 minutes
-- for a reset, 24 hours for a sign-up). A sign-up's name and password hash wait in payload until
-- the link is opened, so an address nobody controls never gets an account.
CREATE TABLE "auth_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"user_id" bigint,
	"payload" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_tokens_purpose_check" CHECK ("auth_tokens"."purpose" in ('password_reset', 'sign_up'))
);
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "auth_tokens_expires_idx" ON "auth_tokens" USING btree ("expires_at");
--> statement-breakpoint
CREATE INDEX "auth_tokens_user_idx" ON "auth_tokens" USING btree ("user_id");
