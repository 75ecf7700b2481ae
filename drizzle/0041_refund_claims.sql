-- Refunds the customer claims on a hosted page (/refund/<token>): the merchant fixes the terms, the
-- customer picks the coin and address, and the payout goes through the withdrawal engine. Only the
-- link token's SHA-256 is stored, and the nonce it is derived from under the master key.
CREATE TABLE "refund_claims" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"invoice_id" bigint NOT NULL,
	"token_hash" text NOT NULL,
	"token_nonce" text NOT NULL,
	"status" text NOT NULL,
	"pay_currency" text NOT NULL,
	"owed_amount" numeric(38, 8) NOT NULL,
	"amount_kind" text NOT NULL,
	"rate_basis" text NOT NULL,
	"fee_paid_by" text NOT NULL,
	"currencies" jsonb NOT NULL,
	"payment_value" numeric(38, 8) NOT NULL,
	"claimed_currency" text,
	"address" text,
	"tag" text,
	"withdrawal_id" bigint,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by_user_id" bigint,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "refund_claims_claimed_has_payout" CHECK (("refund_claims"."status" = 'claimed') = ("refund_claims"."withdrawal_id" is not null)),
	CONSTRAINT "refund_claims_owed_positive" CHECK ("refund_claims"."owed_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "refund_claims" ADD CONSTRAINT "refund_claims_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_claims" ADD CONSTRAINT "refund_claims_invoice_id_transactions_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_claims" ADD CONSTRAINT "refund_claims_pay_currency_currencies_code_fk" FOREIGN KEY ("pay_currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_claims" ADD CONSTRAINT "refund_claims_claimed_currency_currencies_code_fk" FOREIGN KEY ("claimed_currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_claims" ADD CONSTRAINT "refund_claims_withdrawal_id_transactions_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_claims" ADD CONSTRAINT "refund_claims_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_claims_token_hash_key" ON "refund_claims" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "refund_claims_withdrawal_key" ON "refund_claims" USING btree ("withdrawal_id");--> statement-breakpoint
CREATE INDEX "refund_claims_invoice_idx" ON "refund_claims" USING btree ("invoice_id");
