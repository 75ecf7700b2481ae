import { sql } from "drizzle-orm";
import { checkAddress } from "@/lib/chain/address-codec";
import { checkTag } from "@/lib/chain/check-tag";
import { getCurrency } from "@/lib/currencies/registry";
import {
  type CustomerInput,
  customerIdentityCtes,
  writeForCustomer,
} from "@/lib/customers/assert-customer-identity";
import { type Db, type Executor, queryRowsPrepared } from "@/lib/db/client";
import { isUniqueViolation, refusalReason } from "@/lib/db/errors";
import { amountSql, optionalWholeSql } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { FOREIGN_ID_TAKEN } from "@/lib/invoices/create-invoice";
import { JOB_MAX_ATTEMPTS, QUEUED_DEDUPE_CONFLICT } from "@/lib/jobs/enqueue-job";
import { ensureAccount, platformAccount } from "@/lib/ledger/accounts";
import { formatAmountShort } from "@/lib/money";
import type { Receiver, Sender } from "@/lib/schemas/common";
import { foreignIdText } from "@/lib/schemas/withdrawals";
import { priceWithdrawal, type WithdrawalPrice } from "./price-withdrawal";

export const WITHDRAWAL_BROADCAST_QUEUE = "withdrawal.broadcast";

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
  spreadPpm: number;
  /** Field names for errors, as the endpoint's request names them. */
  fields?: { amount: string; amountTo: string; currency: string };
};

export type CreatedWithdrawal = { id: number; price: WithdrawalPrice; tag: string | null };

/**
 * Accepts a withdrawal: validates the destination for the target network (checksums, tag rules),
 * fixes every amount, and in one transaction records it, debits the merchant's balance (amount
 * plus fees; never below zero, whatever the concurrency) into the platform's clearing account, and
 * queues the broadcast. Insufficient funds is a field error saying what was needed.
 */
export async function createWithdrawal(db: Db, input: CreateWithdrawalInput): Promise<CreatedWithdrawal> {
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
  const check = checkAddress(target.addressFormat!, input.address);
  if (!check.isValid) throw fieldError({ address: `The address ${check.reason} for ${target.code}.` });
  const tag = checkTag(target.code, input.tag);
  const foreignId = foreignIdText(input.foreignId);

  const price = await priceWithdrawal(db, {
    source: source.code,
    target: target.code,
    amount: input.amount,
    amountTo: input.amountTo,
    spreadPpm: input.spreadPpm,
    fields,
  });
  const customer = {
    merchantId: input.merchantId,
    endUserReference: input.endUserReference,
    ...input.sender,
  } as CustomerInput;
  const receiverData = input.receiver.receiver_type === "self" ? null : input.receiver.receiver_data;
  const total = amountSql(price.totalDebit);

  // One statement: the customer check, the transaction, the withdrawal, its first event, the
  // broadcast job and the balanced journal; then, last, the merchant's balance and the platform's
  // clearing account locked in id order (as postJournal locks them) and the balance debited only
  // if it covers amount plus fees. A refusal aborts the statement, so nothing of a refused request
  // is written. All of a merchant's withdrawals queue on its balance row, so that lock is taken
  // last and held only inside the database until the commit, never across a round trip.
  // (PostgreSQL runs a WITH query when something first reads it: `locked` reads what must come first.)
  const write = async (executor: Executor, isIdentityChecked: boolean) => {
    const [row] = await queryRowsPrepared<{ id: string | number }>(
      executor,
      sql`with ${customerIdentityCtes(customer, isIdentityChecked)},
          accounts as materialized (
            select id, merchant_id from ledger_accounts
            where currency = ${source.code}
              and ((merchant_id = ${input.merchantId} and kind = 'balance')
                   or (merchant_id is null and kind = 'platform:clearing'))),
          created as (
            insert into transactions (merchant_id, type, status, foreign_id, end_user_reference, currency, amount)
            select ${input.merchantId}, ${input.kind}, 'processing', ${foreignId}, ${input.endUserReference},
                   ${source.code}, ${amountSql(price.principal)}
            from identity_ok
            returning id),
          withdrawal as (
            insert into withdrawals (transaction_id, merchant_id, kind, foreign_id_raw, source_currency,
                                     target_currency, principal, sent_amount, withdrawal_fee, network_fee,
                                     total_debit, rate_numerator, rate_denominator, mid_rate_numerator,
                                     mid_rate_denominator, spread_ppm, address, tag, sender_type,
                                     sender_data, receiver_type, receiver_data)
            select id, ${input.merchantId}, ${input.kind}, ${JSON.stringify(input.foreignId)}::jsonb,
                   ${source.code}, ${target.code}, ${amountSql(price.principal)}, ${amountSql(price.sent)},
                   ${amountSql(price.withdrawalFee)}, ${amountSql(price.networkFee)}, ${total},
                   ${optionalWholeSql(price.rate?.numerator ?? null)}, ${optionalWholeSql(price.rate?.denominator ?? null)},
                   ${optionalWholeSql(price.midRate?.numerator ?? null)}, ${optionalWholeSql(price.midRate?.denominator ?? null)},
                   ${price.spreadPpm}::integer, ${input.address}, ${tag}, ${input.sender.sender_type},
                   ${JSON.stringify(input.sender.sender_data)}::jsonb, ${input.receiver.receiver_type},
                   ${receiverData === null ? null : JSON.stringify(receiverData)}::jsonb
            from created
            returning 1),
          event as (
            insert into transaction_events (transaction_id, merchant_id, to_status, reason)
            select id, ${input.merchantId}, 'processing', 'accepted' from created
            returning 1),
          broadcast as (
            insert into jobs (queue, payload, run_at, dedupe_key, max_attempts)
            select ${WITHDRAWAL_BROADCAST_QUEUE}, jsonb_build_object('withdrawalId', id), now(),
                   'withdrawal-broadcast:' || id, ${JOB_MAX_ATTEMPTS}
            from created
            ${QUEUED_DEDUPE_CONFLICT}
            returning 1),
          journal as (
            insert into journals (merchant_id, transaction_id, kind, memo)
            select ${input.merchantId}, id, 'withdrawal_debit', 'Withdrawal ' || id || ' to ' || ${input.address}
            from created
            returning id),
          entries as (
            insert into ledger_entries (journal_id, account_id, currency, amount)
            select journal.id, accounts.id, ${source.code},
                   case when accounts.merchant_id is null then ${total} else -${total} end
            from journal cross join accounts
            order by accounts.merchant_id is null
            returning 1),
          locked as materialized (
            select id, merchant_id from ledger_accounts
            where id in (select id from accounts)
              and (select count(*) from withdrawal) + (select count(*) from event)
                  + (select count(*) from broadcast) + (select count(*) from entries) > 0
            order by id
            for update),
          debit as (
            update ledger_accounts a set balance = a.balance - ${total}
            from locked x
            where a.id = x.id and x.merchant_id is not null and a.balance - ${total} >= 0
              and exists (select 1 from locked where merchant_id is null)
            returning a.id),
          credit as (
            update ledger_accounts a set balance = a.balance + ${total}
            from locked x
            where a.id = x.id and x.merchant_id is null and exists (select 1 from debit))
          select (select id from created) as id,
                 kassa_refuse(case
                   when not exists (select 1 from identity_ok) then 'identity'
                   when not exists (select 1 from accounts where merchant_id is null) then 'clearing account'
                   when not exists (select 1 from debit) then 'insufficient funds'
                 end)`,
    );
    return Number(row!.id);
  };

  try {
    let id: number;
    try {
      id = await writeForCustomer(db, customer, write);
    } catch (error) {
      if (refusalReason(error) !== "clearing account") throw error;
      // The first withdrawal in this currency on this installation: open the account, once.
      await ensureAccount(db, platformAccount("platform:clearing", source.code));
      id = await writeForCustomer(db, customer, write);
    }
    return { id, price, tag };
  } catch (error) {
    if (isUniqueViolation(error, "transactions_merchant_foreign_id_key")) throw fieldError(FOREIGN_ID_TAKEN);
    if (refusalReason(error) === "insufficient funds") {
      throw fieldError({
        [input.amount !== undefined ? fields.amount : fields.amountTo]:
          `Insufficient funds: this withdrawal needs ${formatAmountShort(price.totalDebit)} ${source.code} from your balance, fees included.`,
      });
    }
    throw error;
  }
}
