import "server-only";

import { randomBytes } from "node:crypto";
import { checkAddress } from "@/lib/chain/address-codec";
import { acceptedNetsOf } from "@/lib/chain/sandbox/address-nets";
import { assertSimulatedCurrency } from "@/lib/chain/sandbox/assert-simulated-currency";
import { assertFitsPrecision } from "@/lib/currencies/precision";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import { chainTransactions } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import type { PaymentRateSettings } from "@/lib/deposits/rate-payment";
import { recordIncomingPayment } from "@/lib/deposits/record-incoming-payment";
import { fieldError } from "@/lib/errors";

export type SandboxPayment = {
  txid: string;
  currency: string;
  address: string;
  tag: string | null;
  amount: bigint;
  confirmations: number;
  /** Whether the address belongs to one of this installation's invoices or permanent addresses. */
  isRecognized: boolean;
};

/** A network-looking transaction id: 64 hex digits (0x-prefixed on Ethereum). */
function newTxid(network: string | null): string {
  const hex = randomBytes(32).toString("hex");
  return network === "ethereum" ? `0x${hex}` : hex;
}

/**
 * Sandbox: a customer's wallet sends `amount` to `address`. The transaction enters the currency's
 * mempool with 0 confirmations and is reported to the watcher exactly as a real chain adapter would.
 * Unlike a real chain, a payment that would take an invoice's paid sum or a balance past the amount
 * cap is refused (a field error on `amount`): the client chooses these amounts.
 */
export async function sendSandboxPayment(
  db: Db,
  input: {
    currency: string;
    address: string;
    tag?: string;
    amount: bigint;
    /** The paying wallet, screened like a real chain's sender (lib/compliance); none unless given. */
    sender_address?: string;
    /** The installation's settings unless given (tests). */
    rateSettings?: PaymentRateSettings;
  },
): Promise<SandboxPayment> {
  const currency = getCurrency(input.currency);
  if (currency.kind !== "crypto" || !currency.addressFormat)
    throw fieldError({ currency: "The currency must be a crypto currency." });
  assertSimulatedCurrency(currency.code);
  // Testnet addresses (those Kassa hands out now) and mainnet ones (stored before it did) alike.
  const check = checkAddress(currency.addressFormat, input.address, acceptedNetsOf(currency.code));
  if (!check.isValid) throw fieldError({ address: `The address ${check.reason}.` });
  assertFitsPrecision({ units: input.amount, currency: currency.code, field: "amount" });
  const tag = input.tag?.trim() ?? "";
  if (tag && currency.tagSupport === "none")
    throw fieldError({ tag: `${currency.code} payments do not carry a tag.` });

  return inTransaction(db, async (tx) => {
    const txid = newTxid(currency.network);
    const [row] = await tx
      .insert(chainTransactions)
      .values({
        currency: currency.code,
        txid,
        address: input.address,
        tag,
        amount: input.amount,
        direction: "in",
        senderAddress: input.sender_address ?? null,
      })
      .returning({ id: chainTransactions.id });
    const recorded = await recordIncomingPayment(
      tx,
      {
        chainTransactionId: row!.id,
        currency: currency.code,
        address: input.address,
        tag,
        amount: input.amount,
      },
      { settings: input.rateSettings, isCapEnforced: true },
    );
    return {
      txid,
      currency: currency.code,
      address: input.address,
      tag: tag || null,
      amount: input.amount,
      confirmations: 0,
      isRecognized: recorded !== null,
    };
  });
}
