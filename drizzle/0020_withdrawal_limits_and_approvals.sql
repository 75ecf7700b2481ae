CREATE TABLE "withdrawal_limits" (
	"merchant_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"per_withdrawal" numeric(38, 8) NOT NULL,
	"per_day" numeric(38, 8),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawal_limits_merchant_id_currency_pk" PRIMARY KEY("merchant_id","currency"),
	CONSTRAINT "withdrawal_limits_positive" CHECK ("withdrawal_limits"."per_withdrawal" >= 0 and ("withdrawal_limits"."per_day" is null or "withdrawal_limits"."per_day" >= 0))
);
--> statement-breakpoint
ALTER TABLE "withdrawal_limits" ADD CONSTRAINT "withdrawal_limits_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "withdrawal_limits" ADD CONSTRAINT "withdrawal_limits_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "created_by_user_id" bigint;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "approval_expires_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "decided_by_user_id" bigint;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "decided_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "withdrawals_awaiting_approval_idx" ON "withdrawals" USING btree ("merchant_id","approval_expires_at") WHERE "withdrawals"."decided_at" is null and "withdrawals"."approval_expires_at" is not null;
--> statement-breakpoint
CREATE TABLE "payout_addresses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"address" text NOT NULL,
	"tag" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_addresses" ADD CONSTRAINT "payout_addresses_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "payout_addresses" ADD CONSTRAINT "payout_addresses_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "payout_addresses_destination_key" ON "payout_addresses" USING btree ("merchant_id","currency","address","tag");
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_address_id" bigint;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_payout_address_id_payout_addresses_id_fk" FOREIGN KEY ("payout_address_id") REFERENCES "public"."payout_addresses"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "payout_addresses" ("merchant_id", "currency", "address", "tag")
SELECT DISTINCT "merchant_id", "target_currency", "address", coalesce("tag", '') FROM "withdrawals";
--> statement-breakpoint
UPDATE "withdrawals" w SET "payout_address_id" = p."id" FROM "payout_addresses" p
WHERE p."merchant_id" = w."merchant_id" AND p."currency" = w."target_currency" AND p."address" = w."address"
  AND p."tag" = coalesce(w."tag", '');
