import "server-only";

import { and, eq, like, sql } from "drizzle-orm";
import { encodeFunctionData } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { Db } from "@/lib/db/client";
import { evmPayouts } from "@/lib/db/schema";
import { SCALE } from "@/lib/money";
import type { EvmNetwork } from "../evm-network";
import { estimateFees } from "../payout/estimate-fees";
import { BALANCE_ABI, TRANSFER_ABI } from "../payout/payout-call";
import { preparePayout } from "../payout/prepare-payout";
import { sendStoredPayout } from "../payout/send-stored-payout";
import { storeSignedPayout } from "../payout/store-signed-payout";
import { deriveDepositAccount } from "./derive-deposit-account";
import { findSweepableAddresses, type SweepableAddress } from "./find-sweepable-addresses";
import { storeSignedSweep } from "./store-signed-sweep";

const ETH_TRANSFER_GAS = 21_000n;

export type SweepSources = {
  seed: (db: Db) => Promise<Uint8Array>;
  hotWallet: (db: Db) => Promise<PrivateKeyAccount>;
  /** Per currency, in ledger units (10^-8): below it an address is left alone. */
  minimums: Record<string, bigint>;
  ceilingGwei: number;
};

export type SweepStart = { swept: number; toppedUp: number };

/** The reference of a token sweep's gas top-up: the deposit address and the how-many-th top-up it is. */
export const gasTopUpReference = (depositAddressId: number, count: number) =>
  `sweep-gas:${depositAddressId}:${count}`;

/**
 * Starts the sweeps that are due: each deposit address whose credited funds reached the minimum
 * is swept to the hot wallet. ETH goes minus the gas (the sweep pays it from the amount); a token
 * needs ETH for gas at the deposit address, so the hot wallet first sends what is missing (a payout
 * `sweep-gas:<address id>:<n>`, stored and tracked like any payout), and the token goes on a later
 * pass once that is mined. Each sweep is stored signed before it is sent (store-signed-sweep.ts).
 */
export async function sweepEvmDeposits(
  db: Db,
  input: { network: EvmNetwork; sources: SweepSources },
): Promise<SweepStart> {
  const { network, sources } = input;
  const start: SweepStart = { swept: 0, toppedUp: 0 };
  const candidates = await findSweepableAddresses(db, network.network);
  if (candidates.length === 0) return start;
  const seed = await sources.seed(db);
  const hotWallet = await sources.hotWallet(db);
  for (const candidate of candidates) {
    const outcome = await sweepAddress(db, { network, sources, seed, hotWallet, candidate });
    if (outcome === "swept") start.swept++;
    if (outcome === "topped up") start.toppedUp++;
  }
  return start;
}

async function sweepAddress(
  db: Db,
  input: {
    network: EvmNetwork;
    sources: SweepSources;
    seed: Uint8Array;
    hotWallet: PrivateKeyAccount;
    candidate: SweepableAddress;
  },
): Promise<"swept" | "topped up" | undefined> {
  const { network, sources, hotWallet, candidate } = input;
  const { client } = network;
  const minimum = sources.minimums[candidate.currency];
  if (minimum === undefined) return undefined;
  const account = deriveDepositAccount(input.seed, candidate.path);
  if (account.address.toLowerCase() !== candidate.address)
    throw new Error(`deposit address ${candidate.id} does not derive from ${candidate.path}`);
  const fees = await estimateFees(client, { ceilingGwei: sources.ceilingGwei });
  const eth = await client.getBalance({ address: candidate.address });
  const base = { network: network.network, chainId: network.chainId, depositAddressId: candidate.id };
  const nonce = () => client.getTransactionCount({ address: candidate.address, blockTag: "pending" });

  if (candidate.currency === "ETH") {
    if (eth < minimum * 10n ** BigInt(18 - SCALE)) return undefined;
    const value = eth - ETH_TRANSFER_GAS * fees.maxFeePerGas;
    if (value <= 0n) return undefined;
    const sweep = await storeSignedSweep(db, {
      ...base,
      currency: "ETH",
      account,
      nonce: await nonce(),
      to: hotWallet.address,
      value,
      data: undefined,
      recipient: hotWallet.address,
      baseAmount: value,
      gasLimit: ETH_TRANSFER_GAS,
      fees,
    });
    await sendStoredPayout(client, sweep);
    return "swept";
  }

  const token = network.tokens.find((t) => t.currency === candidate.currency);
  if (!token) return undefined;
  const held = await client.readContract({
    address: token.address,
    abi: BALANCE_ABI,
    functionName: "balanceOf",
    args: [candidate.address],
  });
  const step = SCALE - token.decimals;
  const threshold = step >= 0 ? minimum / 10n ** BigInt(step) : minimum * 10n ** BigInt(-step);
  if (held === 0n || held < threshold) return undefined;
  const data = encodeFunctionData({
    abi: TRANSFER_ABI,
    functionName: "transfer",
    args: [hotWallet.address, held],
  });
  const gasLimit =
    ((await client.estimateGas({ account: candidate.address, to: token.address, data })) * 6n) / 5n;
  const needed = gasLimit * fees.maxFeePerGas;
  if (eth < needed)
    return topUpGas(db, { network, sources, hotWallet, candidate, missing: 2n * needed - eth });
  const sweep = await storeSignedSweep(db, {
    ...base,
    currency: candidate.currency,
    account,
    nonce: await nonce(),
    to: token.address,
    value: 0n,
    data,
    recipient: hotWallet.address,
    baseAmount: held,
    gasLimit,
    fees,
  });
  await sendStoredPayout(client, sweep);
  return "swept";
}

/**
 * Sends a token's deposit address the ETH its sweep needs (twice the gas at today's max fee, less
 * what it holds: fees may rise before it is mined), unless a top-up of it is still on its way. The
 * reference counts the address's top-ups, so two workers at once sign one (the second gets the
 * stored one back), and a later top-up, if fees outran the first, gets a reference of its own.
 */
async function topUpGas(
  db: Db,
  input: {
    network: EvmNetwork;
    sources: SweepSources;
    hotWallet: PrivateKeyAccount;
    candidate: SweepableAddress;
    missing: bigint;
  },
): Promise<"topped up" | undefined> {
  const { network, hotWallet, candidate } = input;
  const prefix = `sweep-gas:${candidate.id}:%`;
  const [counts] = await db
    .select({
      total: sql<number>`count(*)::int`,
      open: sql<number>`count(*) filter (where ${evmPayouts.status} = 'signed')::int`,
    })
    .from(evmPayouts)
    .where(and(eq(evmPayouts.network, network.network), like(evmPayouts.reference, prefix)));
  if ((counts?.open ?? 0) > 0) return undefined; // the payout tracker resends it until it is mined
  const call = {
    currency: "ETH",
    recipient: candidate.address,
    baseAmount: input.missing,
    to: candidate.address,
    value: input.missing,
    data: undefined,
  };
  const prepared = await preparePayout({
    network,
    wallet: hotWallet,
    call,
    ceilingGwei: input.sources.ceilingGwei,
  });
  if (prepared.kind !== "ready") {
    console.warn(`[chain] gas for sweeping deposit address ${candidate.id} waits: ${prepared.reason}`);
    return undefined;
  }
  const payout = await storeSignedPayout(db, {
    reference: gasTopUpReference(candidate.id, (counts?.total ?? 0) + 1),
    network,
    wallet: hotWallet,
    call,
    fees: prepared.fees,
    gasLimit: prepared.gasLimit,
    firstNonce: await network.client.getTransactionCount({ address: hotWallet.address, blockTag: "pending" }),
  });
  await sendStoredPayout(network.client, payout);
  return "topped up";
}
