import { checkAddress } from "@/lib/chain/address-codec";
import { checkTag } from "@/lib/chain/check-tag";
import { getCurrency } from "@/lib/currencies/registry";
import { assertCustomerIdentity } from "@/lib/customers/assert-customer-identity";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { transactions, withdrawals } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { FOREIGN_ID_TAKEN } from "@/lib/invoices/create-invoice";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import { InsufficientFundsError, postJournal } from "@/lib/ledger/post-journal";
import { formatAmountShort } from "@/lib/money";
import type { Receiver, Sender } from "@/lib/schemas/common";
import { foreignIdText } from "@/lib/schemas/withdrawals";
import { recordCreated } from "@/lib/transactions/transition-status";
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

  try {
    return await inTransaction(db, async (tx) => {
      await assertCustomerIdentity(tx, {
        merchantId: input.merchantId,
        endUserReference: input.endUserReference,
        ...input.sender,
      });
      const price = await priceWithdrawal(tx, {
        source: source.code,
        target: target.code,
        amount: input.amount,
        amountTo: input.amountTo,
        spreadPpm: input.spreadPpm,
        fields,
      });
      const [row] = await tx
        .insert(transactions)
        .values({
          merchantId: input.merchantId,
          type: input.kind,
          status: "processing",
          foreignId,
          endUserReference: input.endUserReference,
          currency: source.code,
          amount: price.principal,
        })
        .returning({ id: transactions.id });
      const id = row!.id;
      await tx.insert(withdrawals).values({
        transactionId: id,
        merchantId: input.merchantId,
        kind: input.kind,
        foreignIdRaw: input.foreignId as object,
        sourceCurrency: source.code,
        targetCurrency: target.code,
        principal: price.principal,
        sentAmount: price.sent,
        withdrawalFee: price.withdrawalFee,
        networkFee: price.networkFee,
        totalDebit: price.totalDebit,
        rate: price.rate,
        midRate: price.midRate,
        spreadPpm: price.spreadPpm,
        address: input.address,
        tag,
        senderType: input.sender.sender_type,
        senderData: input.sender.sender_data,
        receiverType: input.receiver.receiver_type,
        receiverData: input.receiver.receiver_type === "self" ? null : input.receiver.receiver_data,
      });
      await recordCreated(tx, {
        transactionId: id,
        merchantId: input.merchantId,
        status: "processing",
        reason: "accepted",
      });
      await enqueueJob(tx, {
        queue: WITHDRAWAL_BROADCAST_QUEUE,
        payload: { withdrawalId: id },
        dedupeKey: `withdrawal-broadcast:${id}`,
      });
      // The debit last, so the balance row stays locked only until the commit.
      try {
        await postJournal(tx, {
          merchantId: input.merchantId,
          transactionId: id,
          kind: "withdrawal_debit",
          memo: `Withdrawal ${id} to ${input.address}`,
          entries: [
            { account: merchantBalance(input.merchantId, source.code), amount: -price.totalDebit },
            { account: platformAccount("platform:clearing", source.code), amount: price.totalDebit },
          ],
        });
      } catch (error) {
        if (!(error instanceof InsufficientFundsError)) throw error;
        throw fieldError({
          [input.amount !== undefined ? fields.amount : fields.amountTo]:
            `Insufficient funds: this withdrawal needs ${formatAmountShort(price.totalDebit)} ${source.code} from your balance, fees included.`,
        });
      }
      return { id, price, tag };
    });
  } catch (error) {
    if (isUniqueViolation(error, "transactions_merchant_foreign_id_key")) throw fieldError(FOREIGN_ID_TAKEN);
    throw error;
  }
}
