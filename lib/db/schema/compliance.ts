import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { deposits } from "./chain";
import { createdAt } from "./columns";
import { merchantRef, users } from "./core";

/**
 * A payment the screening provider scored at or above its merchant's review threshold:
 * held (`verifying`), never credited, until a member releases it (credited) or rejects it (booked to
 * platform:compliance_held for the operator's refund process, docs/OPERATIONS.md). One per deposit;
 * the decision is a conditional update `held → released|rejected`, so it is taken once.
 */
export const complianceReviews = pgTable(
  "compliance_reviews",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    depositId: bigint("deposit_id", { mode: "number" })
      .notNull()
      .references(() => deposits.id),
    transactionId: bigint("transaction_id", { mode: "number" }).notNull(),
    /** The provider's score, 0 to 100, a decimal string (also kept on the chain transaction as `riskscore`). */
    score: text("score").notNull(),
    reasons: jsonb("reasons").$type<string[]>().notNull(),
    status: text("status", { enum: ["held", "released", "rejected"] })
      .notNull()
      .default("held"),
    decidedBy: bigint("decided_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** A rejected payment the operator sent back (`cli compliance refund`): its transaction id, booked once. */
    refundTxid: text("refund_txid"),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("compliance_reviews_deposit_key").on(t.depositId),
    uniqueIndex("compliance_reviews_refund_txid_key").on(t.refundTxid),
    index("compliance_reviews_queue_idx").on(t.merchantId, t.status, t.id),
    check("compliance_reviews_status_check", sql`${t.status} in ('held', 'released', 'rejected')`),
  ],
);
