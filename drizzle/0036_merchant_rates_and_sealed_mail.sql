-- Sandbox prices per merchant: a merchant's edits on top of the installation's rates table.
CREATE TABLE "merchant_rates" (
	"merchant_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"usd_price" numeric(38, 8) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchant_rates_pkey" PRIMARY KEY("merchant_id","currency")
);
--> statement-breakpoint
ALTER TABLE "merchant_rates" ADD CONSTRAINT "merchant_rates_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_rates" ADD CONSTRAINT "merchant_rates_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Mail that carries a live link: the full message sealed until it is sent, the shown body redacted.
ALTER TABLE "emails" ADD COLUMN "body_sealed" text;--> statement-breakpoint
-- Links already at rest in sent or kept mail lose their token: nobody can use them from a copy of the
-- database. Mail still queued is left to be sent as written.
UPDATE "emails" SET "body" = regexp_replace("body", '#token=[A-Za-z0-9_-]+', '#token=[removed once sent]', 'g')
WHERE "kind" IN ('password_reset', 'sign_up', 'invitation') AND "status" <> 'queued';
