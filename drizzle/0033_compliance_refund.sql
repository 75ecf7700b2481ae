-- The operator's refund of a rejected payment (cli compliance refund): booked once, with its transaction id.
ALTER TABLE "compliance_reviews" ADD COLUMN "refund_txid" text;--> statement-breakpoint
ALTER TABLE "compliance_reviews" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_reviews_refund_txid_key" ON "compliance_reviews" USING btree ("refund_txid");
