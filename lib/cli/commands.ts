import "server-only";

import { z } from "zod";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { resendCallback } from "@/lib/callbacks/resend-callback";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { connectEvmNetwork, EVM_CURRENCIES, EVM_NETWORK } from "@/lib/chain/evm/evm-network";
import { DEFAULT_MAX_FEE_GWEI } from "@/lib/chain/evm/payout/evm-payout-adapter-for";
import { hotWalletAddress } from "@/lib/chain/evm/payout/hot-wallet";
import { listWaitingPayouts } from "@/lib/chain/evm/payout/list-waiting-payouts";
import { readHotWallet } from "@/lib/chain/evm/payout/read-hot-wallet";
import { recordHotWalletFunding } from "@/lib/chain/evm/payout/record-hot-wallet-funding";
import { reconcileEvmChain } from "@/lib/chain/evm/reconcile/reconcile-evm-chain";
import { listEvmSweeps } from "@/lib/chain/evm/sweep/list-evm-sweeps";
import { loadHdSeed } from "@/lib/chain/hd-seed";
import { listChainIncidents } from "@/lib/chain/list-chain-incidents";
import { loadAccountKeys } from "@/lib/chain/load-account-keys";
import { readUtxoHotWallet } from "@/lib/chain/utxo/hot-wallet/read-utxo-hot-wallet";
import { utxoHotWallet } from "@/lib/chain/utxo/hot-wallet/utxo-hot-wallet";
import { bumpUtxoPayout } from "@/lib/chain/utxo/payout/bump-utxo-payout";
import { feeRatePolicy } from "@/lib/chain/utxo/payout/utxo-payout-adapter-for";
import { reconcileUtxoChain } from "@/lib/chain/utxo/reconcile/reconcile-utxo-chain";
import { connectUtxoNetwork, type UtxoNetwork } from "@/lib/chain/utxo/utxo-network";
import { bookComplianceRefund } from "@/lib/compliance/book-compliance-refund";
import { bookEvmComplianceRefund } from "@/lib/compliance/book-evm-compliance-refund";
import { readHeldPayment } from "@/lib/compliance/read-held-payment";
import { setReviewThreshold } from "@/lib/compliance/set-review-threshold";
import type { Config, EvmConfig } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { findCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { setBelowMinimumCallback } from "@/lib/merchants/set-below-minimum-callback";
import { AmountFormatError, formatAmount, parsePositiveAmount } from "@/lib/money";
import { createMerchantInput } from "@/lib/schemas/merchant";
import { toFieldErrors } from "@/lib/schemas/messages";
import { rejectWithdrawal } from "@/lib/withdrawals/process-withdrawal";

/**
 * The ops CLI's commands (DESIGN.md section 8), as data. `cli/index.ts` runs them directly against
 * PostgreSQL or an idle embedded database; a running embedded server runs them for the CLI
 * (lib/host/cli-bridge.ts), since only one process may open the embedded database.
 */
const merchantId = z.coerce.number().int().positive();

export const cliCommand = z.discriminatedUnion("name", [
  z.object({ name: z.literal("merchants.create"), args: createMerchantInput }),
  z.object({
    name: z.literal("sandbox.credit"),
    args: z.object({ merchant: merchantId, currency: z.string().trim().toUpperCase(), amount: z.string() }),
  }),
  z.object({
    name: z.literal("api-keys.create"),
    args: z.object({ merchant: merchantId, label: z.string().max(100).optional() }),
  }),
  z.object({ name: z.literal("api-keys.list"), args: z.object({ merchant: merchantId }) }),
  z.object({
    name: z.literal("api-keys.revoke"),
    args: z.object({ merchant: merchantId, key: z.string().min(1) }),
  }),
  z.object({
    name: z.literal("merchants.set-callback"),
    args: z.object({ merchant: merchantId, url: z.string().trim().max(2048) }),
  }),
  z.object({
    name: z.literal("merchants.limits"),
    args: z.object({
      merchant: merchantId,
      currency: z.string().trim().toUpperCase(),
      "per-withdrawal": z.string({ error: "--per-withdrawal is required: the limit per withdrawal." }),
      "per-day": z.string().optional(),
    }),
  }),
  z.object({
    name: z.literal("merchants.below-minimum-callback"),
    args: z.object({ merchant: merchantId, set: z.enum(["on", "off"]) }),
  }),
  z.object({
    name: z.literal("merchants.review-threshold"),
    args: z.object({ merchant: merchantId, score: z.string().trim() }),
  }),
  z.object({
    name: z.literal("callbacks.resend"),
    args: z.object({ merchant: merchantId, id: z.coerce.number().int().positive() }),
  }),
  z.object({ name: z.literal("chain.incidents"), args: z.object({}) }),
  z.object({ name: z.literal("chain.wallets"), args: z.object({}) }),
  z.object({ name: z.literal("chain.sweeps"), args: z.object({}) }),
  z.object({ name: z.literal("chain.reconcile"), args: z.object({}) }),
  z.object({ name: z.literal("chain.payouts"), args: z.object({}) }),
  z.object({
    name: z.literal("chain.bump"),
    args: z.object({
      currency: z.enum(["BTC", "LTC"]),
      txid: z.string({ error: "--txid is required: the payout's transaction id." }).trim(),
      "fee-rate": z.coerce.number().int().min(1).max(10_000).optional(),
    }),
  }),
  z.object({
    name: z.literal("chain.fund"),
    args: z.object({ currency: z.enum(EVM_CURRENCIES), txid: z.string().trim() }),
  }),
  z.object({
    name: z.literal("compliance.refund"),
    args: z.object({
      review: z.coerce.number().int().positive(),
      txid: z.string({ error: "--txid is required: the refund's transaction id." }).trim(),
      fee: z.string().optional(),
      gas: z.string().optional(),
    }),
  }),
  z.object({
    name: z.literal("withdrawals.reject"),
    args: z.object({ id: z.coerce.number().int().positive(), reason: z.string().trim().min(3).max(500) }),
  }),
]);
export type CliCommand = z.infer<typeof cliCommand>;

/** An optional non-negative decimal flag in 10^-8 units (absent: zero). */
function optionalAmount(text: string | undefined, field: string): bigint {
  if (text === undefined) return 0n;
  try {
    // Zero is a valid fee (nothing withheld); parsePositiveAmount refuses it, so only a leading minus is.
    return /^0*(\.0*)?$/.test(text.trim()) ? 0n : parsePositiveAmount(text);
  } catch (error) {
    if (error instanceof AmountFormatError) throw fieldError({ [field]: error.message });
    throw error;
  }
}

export type CliEnvironment = {
  db: Db;
  box: SecretBox;
  isSandbox: boolean;
  /** The EVM node (KASSA_EVM_RPC_URL), for `chain wallets`. */
  evm?: EvmConfig;
  /** The Bitcoin and Litecoin nodes (KASSA_BTC_RPC_URL, KASSA_LTC_RPC_URL), for `chain wallets`, `reconcile` and `bump`. */
  utxo?: Config["utxo"];
};

const NO_CHAIN =
  "No chain node is configured: set KASSA_EVM_RPC_URL, KASSA_BTC_RPC_URL or KASSA_LTC_RPC_URL.";

/** Each configured UTXO chain's node, connected (its chain decides the addresses shown). */
async function utxoNetworks(env: CliEnvironment): Promise<UtxoNetwork[]> {
  const networks: UtxoNetwork[] = [];
  for (const currency of ["BTC", "LTC"] as const) {
    const config = env.utxo?.[currency];
    if (config)
      networks.push(await connectUtxoNetwork(currency, config, env.isSandbox ? "sandbox" : "production"));
  }
  return networks;
}

export async function runCliCommand(input: unknown, env: CliEnvironment): Promise<Record<string, unknown>> {
  const parsed = cliCommand.safeParse(input);
  if (!parsed.success) {
    const fields = Object.entries(toFieldErrors(parsed.error)).map(([field, message]) => [
      field.replace(/^args\./, ""),
      message,
    ]);
    throw fieldError(Object.fromEntries(fields));
  }
  const command = parsed.data;
  switch (command.name) {
    case "merchants.create": {
      const created = await createMerchant(env.db, env.box, command.args);
      return {
        merchant_id: created.merchantId,
        name: created.name,
        email: created.email,
        api_key: created.apiKey.key,
        api_secret: created.apiKey.secret,
      };
    }
    case "sandbox.credit": {
      const currency = findCurrency(command.args.currency);
      if (!currency) throw fieldError({ currency: `Unknown currency ${command.args.currency}.` });
      let amount: bigint;
      try {
        amount = parsePositiveAmount(command.args.amount, currency.precision);
      } catch (error) {
        if (error instanceof AmountFormatError) throw fieldError({ amount: `The amount ${error.message}.` });
        throw error;
      }
      const result = await creditSandboxBalance(env.db, {
        merchantId: command.args.merchant,
        currency: currency.code,
        amount,
        isSandbox: env.isSandbox,
      });
      return {
        merchant_id: command.args.merchant,
        currency: currency.code,
        amount: formatAmount(amount),
        balance: formatAmount(result.balance),
        journal_id: result.journalId,
      };
    }
    case "api-keys.create": {
      const key = await createApiKey(env.db, env.box, {
        merchantId: command.args.merchant,
        label: command.args.label,
        // The operator's key: full rights, as every key had before scopes.
        canMoveMoney: true,
      });
      return {
        merchant_id: command.args.merchant,
        api_key: key.key,
        api_secret: key.secret,
        label: key.label,
      };
    }
    case "api-keys.list": {
      const keys = await listApiKeys(env.db, command.args.merchant);
      return {
        merchant_id: command.args.merchant,
        keys: keys.map((k) => ({
          api_key: k.key,
          label: k.label,
          created_at: k.createdAt.toISOString(),
          last_used_at: k.lastUsedAt?.toISOString() ?? null,
          revoked_at: k.revokedAt?.toISOString() ?? null,
        })),
      };
    }
    case "merchants.set-callback": {
      const url = command.args.url === "" ? null : command.args.url;
      await setCallbackUrl(env.db, {
        merchantId: command.args.merchant,
        url,
        mode: env.isSandbox ? "sandbox" : "production",
        audit: { actor: { kind: "cli" } },
      });
      return { merchant_id: command.args.merchant, callback_url: url };
    }
    case "merchants.limits": {
      const limits = await env.db.transaction((tx) =>
        setWithdrawalLimits(tx, {
          merchantId: command.args.merchant,
          currency: command.args.currency,
          perWithdrawal: command.args["per-withdrawal"],
          perDay: command.args["per-day"],
          audit: { actor: { kind: "cli" } },
        }),
      );
      return { merchant_id: command.args.merchant, ...limits };
    }
    case "merchants.below-minimum-callback": {
      const isOn = command.args.set === "on";
      await setBelowMinimumCallback(env.db, {
        merchantId: command.args.merchant,
        isOn,
        audit: { actor: { kind: "cli" } },
      });
      return { merchant_id: command.args.merchant, is_below_minimum_callback_on: isOn };
    }
    case "merchants.review-threshold": {
      const threshold = await setReviewThreshold(env.db, {
        merchantId: command.args.merchant,
        threshold: command.args.score,
        audit: { actor: { kind: "cli" } },
      });
      return { merchant_id: command.args.merchant, review_threshold: threshold };
    }
    case "callbacks.resend": {
      const callbackId = await resendCallback(env.db, {
        merchantId: command.args.merchant,
        callbackId: command.args.id,
      });
      // A callback still being retried is attempted again itself (same id), not redelivered.
      return {
        merchant_id: command.args.merchant,
        callback_id: callbackId,
        redelivery_of: callbackId === command.args.id ? null : command.args.id,
      };
    }
    case "withdrawals.reject": {
      const record = await rejectWithdrawal(env.db, {
        withdrawalId: command.args.id,
        reason: command.args.reason,
      });
      return {
        id: record.id,
        merchant_id: record.merchantId,
        status: record.status,
        error: record.withdrawal.error,
      };
    }
    case "chain.incidents":
      return { incidents: await listChainIncidents(env.db) };
    case "chain.wallets": {
      const networks = await utxoNetworks(env);
      if (!env.evm && networks.length === 0) throw fieldError({ chain: NO_CHAIN });
      // The addresses from the accounts' public keys: showing the wallets never opens the seed.
      const keys = await loadAccountKeys(env.db, env.box);
      const wallets: Record<string, unknown> = {};
      if (env.evm)
        wallets.evm = await readHotWallet({
          network: await connectEvmNetwork(env.evm),
          address: hotWalletAddress(keys),
        });
      for (const network of networks)
        wallets[network.currency.toLowerCase()] = await readUtxoHotWallet(env.db, { network, keys });
      return wallets;
    }
    case "chain.sweeps":
      return await listEvmSweeps(env.db);
    case "chain.reconcile": {
      const networks = await utxoNetworks(env);
      if (!env.evm && networks.length === 0) throw fieldError({ chain: NO_CHAIN });
      const keys = await loadAccountKeys(env.db, env.box);
      // The EVM report as it was, each UTXO chain's beside it; is_reconciled only when all are.
      const report: Record<string, unknown> & { is_reconciled: boolean } = env.evm
        ? await reconcileEvmChain(env.db, {
            network: await connectEvmNetwork(env.evm),
            hotWallet: hotWalletAddress(keys),
          })
        : { is_reconciled: true };
      for (const network of networks) {
        const reconciled = await reconcileUtxoChain(env.db, {
          network,
          hotWallet: utxoHotWallet(keys, network).address,
        });
        report[network.currency.toLowerCase()] = reconciled;
        report.is_reconciled &&= reconciled.is_reconciled;
      }
      return report;
    }
    case "chain.fund": {
      if (!env.evm) throw fieldError({ chain: "No EVM node is configured: set KASSA_EVM_RPC_URL." });
      return await recordHotWalletFunding(env.db, {
        network: await connectEvmNetwork(env.evm),
        hotWallet: hotWalletAddress(await loadAccountKeys(env.db, env.box)),
        txid: command.args.txid,
        currency: command.args.currency,
      });
    }
    case "chain.payouts": {
      if (!env.evm) throw fieldError({ chain: "No EVM node is configured: set KASSA_EVM_RPC_URL." });
      return await listWaitingPayouts(env.db, {
        network: await connectEvmNetwork(env.evm),
        hotWallet: hotWalletAddress(await loadAccountKeys(env.db, env.box)),
        ceilingGwei: env.evm.maxFeeGwei ?? DEFAULT_MAX_FEE_GWEI,
      });
    }
    case "chain.bump": {
      const { currency, txid } = command.args;
      const config = env.utxo?.[currency];
      if (!config)
        throw fieldError({ currency: `No ${currency} node is configured: set KASSA_${currency}_RPC_URL.` });
      const rate = command.args["fee-rate"];
      return await bumpUtxoPayout(env.db, {
        network: await connectUtxoNetwork(currency, config, env.isSandbox ? "sandbox" : "production"),
        txid,
        seed: await loadHdSeed(env.db, env.box),
        policy: feeRatePolicy(currency, config),
        feeRate: rate === undefined ? undefined : BigInt(rate),
      });
    }
    case "compliance.refund": {
      const held = await readHeldPayment(env.db, command.args.review);
      // On the EVM chain the node says what the refund sent and what its gas cost; only the
      // sandbox chains, which have no node, take the operator's word for them.
      if (held?.network === EVM_NETWORK) {
        if (command.args.fee !== undefined || command.args.gas !== undefined)
          throw fieldError({
            fee: "On the Ethereum chain the amount sent and the gas are read from the node: leave out --fee and --gas.",
          });
        if (!env.evm)
          throw fieldError({
            chain:
              "This payment was held on the Ethereum chain: set KASSA_EVM_RPC_URL to read its refund from the node.",
          });
        return await bookEvmComplianceRefund(env.db, {
          network: await connectEvmNetwork(env.evm),
          hotWallet: hotWalletAddress(await loadAccountKeys(env.db, env.box)),
          reviewId: command.args.review,
          txid: command.args.txid,
          audit: { actor: { kind: "cli" } },
        });
      }
      return await bookComplianceRefund(env.db, {
        reviewId: command.args.review,
        txid: command.args.txid,
        fee: optionalAmount(command.args.fee, "fee"),
        gas: optionalAmount(command.args.gas, "gas"),
        audit: { actor: { kind: "cli" } },
      });
    }
    case "api-keys.revoke": {
      await revokeApiKey(env.db, { merchantId: command.args.merchant, key: command.args.key });
      return { merchant_id: command.args.merchant, api_key: command.args.key, revoked: true };
    }
  }
}
