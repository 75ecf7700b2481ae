-- Rates become exact ratios (DESIGN.md section 3, issue 15): the numeric(38,8) rate columns truncated
-- cheap-to-dear rates by up to 0.7%. Each is replaced by a numerator and a denominator; an existing
-- row's 8-digit value v becomes exactly v * 10^8 / 10^8 (reduced by the application when read).
ALTER TABLE "invoices" ADD COLUMN "rate_numerator" numeric(78, 0);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "rate_denominator" numeric(78, 0);
--> statement-breakpoint
UPDATE "invoices" SET "rate_numerator" = "rate" * 100000000, "rate_denominator" = 100000000
  WHERE "rate" IS NOT NULL AND "rate" > 0;
--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "rate";
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "rate_numerator" numeric(78, 0);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "rate_denominator" numeric(78, 0);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "mid_rate_numerator" numeric(78, 0);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "mid_rate_denominator" numeric(78, 0);
--> statement-breakpoint
UPDATE "withdrawals" SET "rate_numerator" = "rate" * 100000000, "rate_denominator" = 100000000
  WHERE "rate" IS NOT NULL AND "rate" > 0;
--> statement-breakpoint
UPDATE "withdrawals" SET "mid_rate_numerator" = "mid_rate" * 100000000, "mid_rate_denominator" = 100000000
  WHERE "mid_rate" IS NOT NULL AND "mid_rate" > 0;
--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "rate";
--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "mid_rate";
--> statement-breakpoint
-- Rate locks expire: each payment records, when it is seen, how much of it the invoice's locked rate
-- covers and the rate of that moment for the rest; crediting uses exactly these.
ALTER TABLE "deposits" ADD COLUMN "locked_amount" numeric(38, 8) DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "locked_rate_numerator" numeric(78, 0);
--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "locked_rate_denominator" numeric(78, 0);
--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "rate_numerator" numeric(78, 0);
--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "rate_denominator" numeric(78, 0);
--> statement-breakpoint
-- Payments recorded before this migration were (or will be) credited whole at their invoice's locked rate.
UPDATE "deposits" d SET "locked_amount" = d."amount",
  "locked_rate_numerator" = i."rate_numerator", "locked_rate_denominator" = i."rate_denominator"
  FROM "invoices" i WHERE i."transaction_id" = d."transaction_id" AND i."rate_numerator" IS NOT NULL;
