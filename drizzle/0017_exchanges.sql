CREATE TABLE "exchange_quotes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"sender_currency" text NOT NULL,
	"receiver_currency" text NOT NULL,
	"sender_amount" numeric(38, 8) NOT NULL,
	"receiver_amount" numeric(38, 8) NOT NULL,
	"fee_amount" numeric(38, 8) NOT NULL,
	"price" numeric(38, 8) NOT NULL,
	"rate_numerator" numeric(78, 0) NOT NULL,
	"rate_denominator" numeric(78, 0) NOT NULL,
	"mid_rate_numerator" numeric(78, 0) NOT NULL,
	"mid_rate_denominator" numeric(78, 0) NOT NULL,
	"spread_ppm" integer NOT NULL,
	"fixed_at" timestamp with time zone NOT NULL,
	"release_at" timestamp with time zone NOT NULL,
	"transaction_id" bigint
);
--> statement-breakpoint
CREATE TABLE "exchanges" (
	"transaction_id" bigint PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"quote_id" bigint,
	"sender_currency" text NOT NULL,
	"receiver_currency" text NOT NULL,
	"sender_amount" numeric(38, 8) NOT NULL,
	"receiver_amount" numeric(38, 8) NOT NULL,
	"fee_amount" numeric(38, 8) NOT NULL,
	"fee_type" text NOT NULL,
	"price" numeric(38, 8) NOT NULL,
	"rate_numerator" numeric(78, 0) NOT NULL,
	"rate_denominator" numeric(78, 0) NOT NULL,
	"mid_rate_numerator" numeric(78, 0) NOT NULL,
	"mid_rate_denominator" numeric(78, 0) NOT NULL,
	"spread_ppm" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "exchanges_kind_check" CHECK ("kind" in ('fixed', 'now')),
	CONSTRAINT "exchanges_amounts_check" CHECK ("sender_amount" > 0 AND "receiver_amount" > 0 AND "fee_amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "exchange_quotes" ADD CONSTRAINT "exchange_quotes_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_quotes" ADD CONSTRAINT "exchange_quotes_sender_currency_currencies_code_fk" FOREIGN KEY ("sender_currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_quotes" ADD CONSTRAINT "exchange_quotes_receiver_currency_currencies_code_fk" FOREIGN KEY ("receiver_currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_quotes" ADD CONSTRAINT "exchange_quotes_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_quote_id_exchange_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."exchange_quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_sender_currency_currencies_code_fk" FOREIGN KEY ("sender_currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_receiver_currency_currencies_code_fk" FOREIGN KEY ("receiver_currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exchange_quotes_open_idx" ON "exchange_quotes" USING btree ("merchant_id","sender_currency","receiver_currency","price") WHERE "transaction_id" is null;--> statement-breakpoint
CREATE INDEX "exchange_quotes_release_idx" ON "exchange_quotes" USING btree ("merchant_id","release_at") WHERE "transaction_id" is null;--> statement-breakpoint
CREATE INDEX "exchanges_merchant_idx" ON "exchanges" USING btree ("merchant_id");
