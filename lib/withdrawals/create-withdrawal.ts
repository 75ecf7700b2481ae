import "server-only";

import { type SQL, sql } from "drizzle-orm";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import { queueCallback } from "@/lib/callbacks/queue-callback";
import { checkAddress } from "@/lib/chain/address-codec";
import { checkTag } from "@/lib/chain/check-tag";
import { acceptedNetsOf } from "@/lib/chain/sandbox/address-nets";
import type { Clock } from "@/lib/clock";
import { isOffered } from "@/lib/currencies/offering";
import { type Currency, getCurrency } from "@/lib/currencies/registry";
import {
  type CustomerInput,
  customerIdentityError,
  customerIdentitySql,
} from "@/lib/customers/assert-customer-identity";
import { type Db, type Executor, queryRowsPrepared, type Tx } from "@/lib/db/client";
import { refusalReason } from "@/lib/db/errors";
import { amountSql, optionalWholeSql } from "@/lib/db/schema";
import { inTransaction, retrySerializationFailures } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import { inBalanceQueue } from "@/lib/ledger/balance-queue";
import { journalJson, postJournalsSql } from "@/lib/ledger/post-journal";
import { judgeWithdrawalLimits, withdrawalLegs } from "@/lib/limits/judge-withdrawal-limits";
import { formatAmountShort } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import type { Receiver, Sender } from "@/lib/schemas/common";
import { foreignIdText } from "@/lib/schemas/withdrawals";
import { foreignIdTakenError } from "@/lib/transactions/foreign-id-taken";
import { changeSql, THIS_ID } from "@/lib/transactions/record-change";
import { DEFAULT_APPROVAL_SECONDS } from "./approval-window";
import { assertRefundFits } from "./assert-refund-fits";
import { priceWithdrawal, type WithdrawalPrice } from "./price-withdrawal";
import { approvalExpiryJob, broadcastJob } from "./withdrawal-jobs";

export type WithdrawalKind = "withdrawal" | "withdrawal_exchange" | "withdrawal_instant";

export type CreateWithdrawalInput = {
  merchantId: number;
  kind: WithdrawalKind;
  source: string;
  target: string;
  amount?: bigint;
  amountTo?: bigint;
  address: string;
  tag?: string;
  foreignId: unknown;
  endUserReference: string;
  sender: Sender;
  receiver: Receiver;
  pricing: Pricing;
  /** Field names for errors, as the endpoint's request names them. */
  fields?: { amount: string; amountTo: string; currency: string };
  /** The API key whose request creates it (it signs the withdrawal's callbacks); absent: the dashboard. */
  apiKeyId?: number;
  /** The dashboard user asking for it; absent through the API. That user cannot approve it. */
  createdByUserId?: number;
  /** How long a withdrawal over a limit waits for an approver (KASSA_WITHDRAWAL_APPROVAL_SECONDS). */
  approvalSeconds?: number;
  /** The invoice whose owed refund this sends (the dashboard's "Refund owed"); checked against what it owes. */
  refundOf?: number;
  /**
   * A refund the customer claimed (lib/refunds/claim-refund.ts): it was checked against what the
   * invoice owes when it was issued, so `claim.before` replaces that check (it locks the claim and
   * refuses one no longer open), and `claim.after` links the claim to the payout, both in the
   * transaction that writes it: a claim sends at most one payout.
   */
  claim?: { before: (tx: Tx) => Promise<void>; after: (tx: Tx, withdrawalId: number) => Promise<void> };
  /** Who asked for it, for the audit trail (written by the same statement as the withdrawal). */
  audit?: AuditSource;
  clock?: Clock;
};

export type CreatedWithdrawal = {
  id: number;
  price: WithdrawalPrice;
  tag: string | null;
  /** `pending` when it is over a limit and waits for an approver; otherwise `processing`. */
  status: "pending" | "processing";
};

/**
 * Accepts a withdrawal: validates the destination for the target network (checksums, tag rules),
 * fixes every amount, and in one transaction records it, debits the merchant's balance (amount
 * plus fees; never below zero, whatever the concurrency) into the platform's clearing account, and
 * queues the broadcast. Insufficient funds is a field error saying what was needed.
 */
export async function createWithdrawal(db: Db, input: CreateWithdrawalInput): Promise<CreatedWithdrawal> {
  const prepared = await prepareWithdrawal(db, input);
  const { price, tag } = prepared;
  const write = (executor: Executor, expiresAt?: Date) => writeWithdrawal(executor, prepared, { expiresAt });
  try {
    // Without limits in any currency it touches, one statement is the whole write; it refuses itself
    // when the merchant has limits there (`unlessLimitedIn`), which saves the round trip that looked
    // them up first. With them, their rows are locked first, in a transaction, so movements racing for
    // one day's limit are judged in turn. A refund is checked against what its invoice owes under the
    // invoice's row lock, in the transaction that writes it. Either way the write waits its turn for
    // the merchant's balance (lib/ledger/balance-queue.ts), after the reads it needs.
    const legs = withdrawalLegs(price);
    const { refundOf, claim } = input;
    if (refundOf === undefined && claim === undefined) {
      const unlessLimitedIn = legs.map((leg) => leg.currency);
      try {
        const id = await inBalanceQueue(input.merchantId, prepared.source.code, () =>
          retrySerializationFailures(() => writeWithdrawal(db, prepared, { unlessLimitedIn })),
        );
        return { id, price, tag, status: "processing" };
      } catch (error) {
        if (refusalReason(error) !== LIMITED) throw error;
      }
    }
    const inOwnTransaction = () =>
      inTransaction(db, async (tx) => {
        if (claim) await claim.before(tx);
        else if (refundOf !== undefined) {
          await assertRefundFits(tx, {
            merchantId: input.merchantId,
            invoiceId: refundOf,
            target: prepared.target.code,
            sent: price.sent,
            fields: {
              amount: input.amount !== undefined ? prepared.fields.amount : prepared.fields.amountTo,
              target: input.kind === "withdrawal_exchange" ? "convert_to" : prepared.fields.currency,
            },
          });
        }
        const verdict = await judgeWithdrawalLimits(tx, {
          merchantId: input.merchantId,
          legs,
          clock: input.clock,
        });
        if (verdict.isWithin) {
          const id = await write(tx);
          await claim?.after(tx, id);
          return { id, price, tag, status: "processing" as const };
        }
        const expiresAt = approvalDeadline(input);
        const id = await write(tx, expiresAt);
        await awaitApproval(tx, { withdrawalId: id });
        await claim?.after(tx, id);
        return { id, price, tag, status: "pending" as const };
      });
    return await inBalanceQueue(input.merchantId, prepared.source.code, inOwnTransaction);
  } catch (error) {
    throw withdrawalWriteError(error, prepared);
  }
}

/** When a withdrawal created `pending` now stops waiting for an approver. */
export function approvalDeadline(input: Pick<CreateWithdrawalInput, "clock" | "approvalSeconds">): Date {
  const now = input.clock?.now() ?? new Date();
  return new Date(now.getTime() + (input.approvalSeconds ?? DEFAULT_APPROVAL_SECONDS) * 1000);
}

/** A withdrawal written `pending` (its expiry job written with it): its `pending` callback, in its transaction. */
export async function awaitApproval(tx: Tx, input: { withdrawalId: number }): Promise<void> {
  await queueCallback(tx, { transactionId: input.withdrawalId, status: "pending" });
}

/** A withdrawal checked and priced, not yet written: what writeWithdrawal records. */
export type PreparedWithdrawal = {
  input: CreateWithdrawalInput;
  fields: { amount: string; amountTo: string; currency: string };
  source: Currency;
  target: Currency;
  tag: string | null;
  foreignId: string;
  price: WithdrawalPrice;
};

/**
 * Everything about a withdrawal that can be judged before it is written: the currencies offered,
 * the destination for the target network (checksums, tag rules) and every amount fixed by its
 * price. Throws the field error a request would get; writes nothing.
 */
export async function prepareWithdrawal(
  db: Executor,
  input: CreateWithdrawalInput,
): Promise<PreparedWithdrawal> {
  const fields = input.fields ?? { amount: "amount", amountTo: "amount_to", currency: "currency" };
  const source = getCurrency(input.source);
  const target = getCurrency(input.target);
  if (input.kind !== "withdrawal_exchange" && source.kind !== "crypto") {
    throw fieldError({
      [fields.currency]: `${source.code} cannot be sent as it is; add convert_to with the crypto currency to send.`,
    });
  }
  if (input.kind === "withdrawal_exchange" && source.code === target.code) {
    throw fieldError({
      convert_to: "convert_to must differ from currency; leave it out to send the currency as it is.",
    });
  }
  // Production pays out on real networks only (DESIGN.md section 5): a currency the schema let
  // through but no real adapter carries is refused here, before anything is debited or queued.
  if (!isOffered(target.code)) {
    throw fieldError({
      [input.kind === "withdrawal_exchange" ? "convert_to" : fields.currency]:
        `${target.code} cannot be withdrawn here: this installation has no real ${target.code} network to send it on.`,
    });
  }
  const check = checkAddress(target.addressFormat!, input.address, acceptedNetsOf(target.code));
  if (!check.isValid) throw fieldError({ address: `The address ${check.reason} for ${target.code}.` });
  const tag = checkTag(target.code, input.tag);
  const foreignId = foreignIdText(input.foreignId);

  const price = await priceWithdrawal(db, {
    merchantId: input.merchantId,
    source: source.code,
    target: target.code,
    amount: input.amount,
    amountTo: input.amountTo,
    pricing: input.pricing,
    fields,
    isRefund: input.refundOf !== undefined,
  });
  return { input, fields, source, target, tag, foreignId, price };
}

/**
 * Writes a prepared withdrawal in one statement: the customer check, the transaction, the
 * withdrawal, its first event, the broadcast job (unless it waits for approval), the audit entry
 * and the debit (kassa_post_journals, drizzle/0010); a refusal writes nothing. `batch`: the bulk
 * payout and row it belongs to. Returns its id; errors as withdrawalWriteError maps them.
 */
export async function writeWithdrawal(
  executor: Executor,
  prepared: PreparedWithdrawal,
  options: {
    expiresAt?: Date;
    batch?: { id: number; row: number };
    /** Refuse (kassa_refuse, LIMITED), writing nothing, when the merchant has a limit in one of these. */
    unlessLimitedIn?: readonly string[];
  },
): Promise<number> {
  const { input, source, target, tag, foreignId, price } = prepared;
  const { expiresAt, batch, unlessLimitedIn } = options;
  const status: CreatedWithdrawal["status"] = expiresAt ? "pending" : "processing";
  const customer = {
    merchantId: input.merchantId,
    endUserReference: input.endUserReference,
    ...input.sender,
  } as CustomerInput;
  const receiverData = input.receiver.receiver_type === "self" ? null : input.receiver.receiver_data;
  const total = amountSql(price.totalDebit);
  const change = changeSql("created", {
    merchantId: input.merchantId,
    from: null,
    to: status,
    reason: expiresAt ? "over a withdrawal limit: waits for an approver" : "accepted",
    jobs: [expiresAt ? approvalExpiryJob(expiresAt) : broadcastJob],
    audit: input.audit && {
      source: input.audit,
      action: "payout_created",
      detail: [
        "withdrawal ",
        THIS_ID,
        `: ${formatAmountShort(price.principal)} ${source.code} to ${input.address}`,
      ],
    },
  });

  const debit = journalJson({
    merchantId: input.merchantId,
    kind: "withdrawal_debit",
    entries: [
      { account: merchantBalance(input.merchantId, source.code), amount: -price.totalDebit },
      { account: platformAccount("platform:clearing", source.code), amount: price.totalDebit },
    ],
  });

  // Sub-statements are ordered by their RETURNING data alone: docs/decisions/one-statement-writes.md.
  {
    // Raw: the measured withdrawal/crypto write, one data-modifying WITH statement (docs/BENCHMARKS.md).
    const [row] = await queryRowsPrepared<{ id: string | number }>(
      executor,
      sql`with customer as (select ${customerIdentitySql(customer)} as is_checked ${unlimitedSql(input.merchantId, unlessLimitedIn)}),
          created as (
            insert into transactions (merchant_id, type, status, foreign_id, end_user_reference, currency, amount, api_key_id)
            select ${input.merchantId}, ${input.kind}, ${status}::text, ${foreignId}, ${input.endUserReference},
                   ${source.code}, ${amountSql(price.principal)}, ${input.apiKeyId ?? null}::bigint
            from customer
            returning id),
          destination as (
            -- The destination's address record: its id is crypto_address.id. The no-op update makes
            -- RETURNING answer the existing row's id too.
            insert into payout_addresses (merchant_id, currency, address, tag)
            values (${input.merchantId}, ${target.code}, ${input.address}, ${tag ?? ""})
            on conflict (merchant_id, currency, address, tag) do update set tag = excluded.tag
            returning id as address_id),
          withdrawal as (
            insert into withdrawals (transaction_id, merchant_id, kind, foreign_id_raw, source_currency,
                                     target_currency, principal, sent_amount, withdrawal_fee, network_fee,
                                     total_debit, rate_numerator, rate_denominator, mid_rate_numerator,
                                     mid_rate_denominator, spread_ppm, address, tag, sender_type,
                                     sender_data, receiver_type, receiver_data, created_by_user_id,
                                     approval_expires_at, payout_address_id, refund_of, batch_id, batch_row)
            select id, ${input.merchantId}, ${input.kind}, ${JSON.stringify(input.foreignId)}::jsonb,
                   ${source.code}, ${target.code}, ${amountSql(price.principal)}, ${amountSql(price.sent)},
                   ${amountSql(price.withdrawalFee)}, ${amountSql(price.networkFee)}, ${total},
                   ${optionalWholeSql(price.rate?.numerator ?? null)}, ${optionalWholeSql(price.rate?.denominator ?? null)},
                   ${optionalWholeSql(price.midRate?.numerator ?? null)}, ${optionalWholeSql(price.midRate?.denominator ?? null)},
                   ${price.spreadPpm}::integer, ${input.address}, ${tag}, ${input.sender.sender_type},
                   ${JSON.stringify(input.sender.sender_data)}::jsonb, ${input.receiver.receiver_type},
                   ${receiverData === null ? null : JSON.stringify(receiverData)}::jsonb,
                   ${input.createdByUserId ?? null}::bigint, ${expiresAt?.toISOString() ?? null}::timestamptz,
                   destination.address_id, ${input.refundOf ?? null}::bigint,
                   ${batch?.id ?? null}::bigint, ${batch?.row ?? null}::integer
            from created, destination
            returning 1),
          ${change.ctes},
          posted as (
            select ${postJournalsSql(sql`jsonb_build_array(${debit}::jsonb || jsonb_build_object(
                     'transaction_id', id, 'memo', 'Withdrawal ' || id || ' to ' || ${input.address}::text))`)}
                   as journal_ids
            from created
            where (select count(*) from withdrawal) + ${change.written} > 0)
          select created.id, kassa_refuse(case when posted.journal_ids is null then 'not posted' end)
          from created left join posted on true`,
    );
    return Number(row!.id);
  }
}

/** The refusal of a one-statement write for a merchant with withdrawal limits in its currencies. */
const LIMITED = "limited";

/**
 * The `customer` CTE's FROM when the write must refuse for a merchant with limits in `currencies`:
 * checked before the customer is, and the refusal aborts the statement, so nothing of it is written.
 */
function unlimitedSql(merchantId: number, currencies: readonly string[] | undefined): SQL {
  if (!currencies) return sql``;
  return sql`from (select kassa_refuse(case when exists (
                select from withdrawal_limits where merchant_id = ${merchantId}
                  and currency in (${sql.join(
                    currencies.map((currency) => sql`${currency}`),
                    sql`, `,
                  )})) then ${LIMITED} end)) as unlimited`;
}

/** What a failed write means to the caller: a taken foreign_id, too little balance, another customer. */
export function withdrawalWriteError(error: unknown, prepared: PreparedWithdrawal): unknown {
  const taken = foreignIdTakenError(error);
  if (taken) return taken;
  if (refusalReason(error) === "insufficient funds") {
    const { input, fields, source, price } = prepared;
    return fieldError({
      [input.amount !== undefined ? fields.amount : fields.amountTo]:
        `Insufficient funds: this withdrawal needs ${formatAmountShort(price.totalDebit)} ${source.code} from your balance, fees included.`,
    });
  }
  return customerIdentityError(error) ?? error;
}
