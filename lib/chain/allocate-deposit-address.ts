import "server-only";

import { sql } from "drizzle-orm";
import { getCurrency } from "@/lib/currencies/registry";
import type { Tx } from "@/lib/db/client";
import { addressCounters, depositAddresses } from "@/lib/db/schema";
import type { AccountKeys } from "./account-keys";
import { deriveAddress } from "./derivation";
import { depositNetOf } from "./sandbox/address-nets";

export type DepositAddressRow = typeof depositAddresses.$inferSelect;

/** Takes the next number from a counter; the row lock makes concurrent callers get distinct numbers. */
async function nextNumber(tx: Tx, key: string, start = 0): Promise<number> {
  const [row] = await tx
    .insert(addressCounters)
    .values({ key, nextIndex: start + 1 })
    .onConflictDoUpdate({
      target: addressCounters.key,
      set: { nextIndex: sql`${addressCounters.nextIndex} + 1` },
    })
    .returning({ nextIndex: addressCounters.nextIndex });
  return Number(row!.nextIndex) - 1;
}

/**
 * Hands out a never-used deposit address: the next index of the network's derivation path (tokens share
 * their network's counter). XRP uses one address per installation (each account costs a ledger reserve)
 * and a never-reused destination tag. On the sandbox chain the address is in testnet format
 * (lib/chain/sandbox/address-nets.ts); an address handed out earlier keeps its stored format.
 */
export async function allocateDepositAddress(
  tx: Tx,
  keys: AccountKeys,
  input: {
    merchantId: number;
    currency: string;
    kind: "invoice" | "permanent";
    invoiceId?: number;
    foreignId?: string;
    convertTo?: string;
    endUserReference?: string;
    /** The API key that took a permanent address. */
    apiKeyId?: number;
  },
): Promise<DepositAddressRow> {
  const currency = getCurrency(input.currency);
  if (!currency.addressFormat || !currency.network)
    throw new Error(`${currency.code} has no deposit addresses`);
  let address: string;
  let path: string;
  let tag = "";
  const net = depositNetOf(currency.code);
  if (currency.addressFormat === "ripple") {
    ({ address, path } = deriveAddress(keys, "ripple", 0, net));
    tag = String(await nextNumber(tx, "tag:ripple", 100_000));
  } else {
    ({ address, path } = deriveAddress(
      keys,
      currency.addressFormat,
      await nextNumber(tx, `path:${currency.network}`),
      net,
    ));
  }
  const [row] = await tx
    .insert(depositAddresses)
    .values({
      merchantId: input.merchantId,
      currency: currency.code,
      network: currency.network,
      address,
      tag,
      derivationPath: path,
      kind: input.kind,
      invoiceId: input.invoiceId ?? null,
      foreignId: input.foreignId ?? null,
      convertTo: input.convertTo ?? null,
      endUserReference: input.endUserReference ?? null,
      apiKeyId: input.apiKeyId ?? null,
    })
    .returning();
  return row!;
}
