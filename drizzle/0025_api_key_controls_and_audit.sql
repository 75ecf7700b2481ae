-- API key controls (issue 20): an optional allowlist of CIDR ranges per key (NULL: any address),
-- the address the key was last used from, and the end of a rolled key's overlap (NULL: no end).
ALTER TABLE "api_keys" ADD COLUMN "allowed_ips" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_ip" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
-- The audit trail: one row per sensitive action, scoped to its merchant, never updated.
CREATE TABLE "audit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"user_id" bigint,
	"address" text,
	"action" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_entries_merchant_idx" ON "audit_entries" USING btree ("merchant_id","id");
