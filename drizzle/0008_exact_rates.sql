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
-- Payments already credited were credited whole at their invoice's locked rate: recorded as such.
UPDATE "deposits" d SET "locked_amount" = d."amount",
  "locked_rate_numerator" = i."rate_numerator", "locked_rate_denominator" = i."rate_denominator"
  FROM "invoices" i
  WHERE i."transaction_id" = d."transaction_id" AND i."rate_numerator" IS NOT NULL AND d."status" = 'credited';
--> statement-breakpoint
-- Payments seen but not yet credited get what the application gives a payment when it is seen: the
-- locked rate covers at most what remains of the amount due (payments taken in the order they were
-- seen, by id), and only while the invoice is open and its lock has not expired now. Everything else
-- (an overpayment, a payment to a closed invoice, one paid after the lock expired) keeps
-- locked_amount 0 and no rate, and is converted when credited at the rate of that moment, never at
-- a stale lock. Without a timer a lock lasts KASSA_RATE_LOCK_SECONDS, which SQL cannot read: the
-- default, 900 seconds, is assumed (with a longer setting those payments convert at the current
-- rate instead of the lock, which never credits the merchant more than the money is worth).
UPDATE "deposits" d SET
  "locked_amount" = least(d."amount", i."sender_amount" - p."before"),
  "locked_rate_numerator" = i."rate_numerator", "locked_rate_denominator" = i."rate_denominator"
  FROM "invoices" i, "transactions" t,
    (SELECT "id", coalesce(sum("amount") OVER (PARTITION BY "transaction_id" ORDER BY "id"
       ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS "before" FROM "deposits") p
  WHERE p."id" = d."id" AND i."transaction_id" = d."transaction_id" AND t."id" = d."transaction_id"
    AND d."status" = 'seen' AND i."rate_numerator" IS NOT NULL AND i."sender_amount" > p."before"
    AND t."status" IN ('pending', 'processing')
    AND now() < coalesce(i."expires_at", i."fixed_at" + interval '900 seconds');
