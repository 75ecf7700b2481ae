-- Payment links (docs/decisions/payment-links.md): a reusable public page (/link/<token>) where each
-- customer who starts paying gets an invoice of their own, linked back by invoices.payment_link_id.
-- Uses and money received are counted from those invoices, never stored.
CREATE TABLE "payment_links" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"token" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"currency" text NOT NULL,
	"amount" numeric(38, 8),
	"min_amount" numeric(38, 8),
	"max_amount" numeric(38, 8),
	"allows_natural" boolean NOT NULL,
	"allows_legal" boolean NOT NULL,
	"url_success" text,
	"url_failed" text,
	"expires_at" timestamp with time zone,
	"max_uses" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"api_key_id" bigint,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deactivated_at" timestamp with time zone,
	CONSTRAINT "payment_links_amount_kind" CHECK ("payment_links"."amount" is null or ("payment_links"."min_amount" is null and "payment_links"."max_amount" is null)),
	CONSTRAINT "payment_links_amount_positive" CHECK ("payment_links"."amount" is null or "payment_links"."amount" > 0),
	CONSTRAINT "payment_links_range" CHECK ("payment_links"."min_amount" is null or "payment_links"."max_amount" is null or "payment_links"."max_amount" >= "payment_links"."min_amount"),
	CONSTRAINT "payment_links_sender_types" CHECK ("payment_links"."allows_natural" or "payment_links"."allows_legal"),
	CONSTRAINT "payment_links_max_uses" CHECK ("payment_links"."max_uses" is null or "payment_links"."max_uses" > 0)
);
--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_links_token_key" ON "payment_links" USING btree ("token");--> statement-breakpoint
CREATE INDEX "payment_links_merchant_idx" ON "payment_links" USING btree ("merchant_id","id");--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payment_link_id" bigint;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_link_id_payment_links_id_fk" FOREIGN KEY ("payment_link_id") REFERENCES "public"."payment_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_payment_link_idx" ON "invoices" USING btree ("payment_link_id") WHERE "invoices"."payment_link_id" is not null;
