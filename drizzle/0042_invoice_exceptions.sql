-- A merchant's underpayment tolerance (basis points: exact, 0 to 10 %) and support e-mail address.
ALTER TABLE "merchants" ADD COLUMN "underpayment_tolerance_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_underpayment_tolerance_check" CHECK ("merchants"."underpayment_tolerance_bp" >= 0 and "merchants"."underpayment_tolerance_bp" <= 1000);--> statement-breakpoint
-- An invoice's exception closed without a refund: one row per invoice, never updated (one-way).
CREATE TABLE "invoice_resolutions" (
	"transaction_id" bigint PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"resolved_by" text NOT NULL,
	"resolved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_resolutions_reason_check" CHECK ("invoice_resolutions"."reason" in ('paid_outside', 'customer_declined', 'too_small', 'other'))
);
--> statement-breakpoint
ALTER TABLE "invoice_resolutions" ADD CONSTRAINT "invoice_resolutions_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_resolutions" ADD CONSTRAINT "invoice_resolutions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;
