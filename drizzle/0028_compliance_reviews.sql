-- Compliance screening (issue 20). Each chain payment keeps the sender address(es) its chain names,
-- so the screening provider can score them; a merchant's review threshold (a score from 0 to 100)
-- decides which scored payments wait for a person; compliance_reviews is the queue of those held
-- payments and the decision taken on each (one per deposit).
ALTER TABLE "chain_transactions" ADD COLUMN "sender_address" text;
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "review_threshold" text DEFAULT '80' NOT NULL;
--> statement-breakpoint
CREATE TABLE "compliance_reviews" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"deposit_id" bigint NOT NULL,
	"transaction_id" bigint NOT NULL,
	"score" text NOT NULL,
	"reasons" jsonb NOT NULL,
	"status" text DEFAULT 'held' NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "compliance_reviews_status_check" CHECK ("compliance_reviews"."status" in ('held', 'released', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "compliance_reviews" ADD CONSTRAINT "compliance_reviews_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "compliance_reviews" ADD CONSTRAINT "compliance_reviews_deposit_id_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."deposits"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "compliance_reviews" ADD CONSTRAINT "compliance_reviews_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_reviews_deposit_key" ON "compliance_reviews" USING btree ("deposit_id");
--> statement-breakpoint
CREATE INDEX "compliance_reviews_queue_idx" ON "compliance_reviews" USING btree ("merchant_id","status","id");
