import { describe, expect, it } from "vitest";
import { tokenContracts } from "@/lib/chain/evm/evm-network";
import { toLedgerAmount } from "@/lib/chain/evm/to-ledger-amount";
import { ConfigError, loadConfig } from "@/lib/config";

/** An environment of just these variables (NODE_ENV is not needed by the settings under test). */
const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

const USDT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const USDC = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";

describe("KASSA_EVM_* settings", () => {
  it("leave the EVM adapter off without an RPC URL", () => {
    expect(loadConfig(env({})).evm).toBeUndefined();
  });

  it.each([
    [{ KASSA_EVM_TOKENS: `USDC=${USDC}` }, "KASSA_EVM_TOKENS: needs KASSA_EVM_RPC_URL"],
    [{ KASSA_EVM_CONFIRMATIONS: "3" }, "KASSA_EVM_CONFIRMATIONS: needs KASSA_EVM_RPC_URL"],
  ])("refuse %j without a node to apply it to", (vars, message) => {
    expect(() => loadConfig(env(vars))).toThrow(message);
  });

  it("parse the RPC URL, the token contracts and the confirmations", () => {
    const config = loadConfig(
      env({
        KASSA_EVM_RPC_URL: "http://127.0.0.1:8545",
        KASSA_EVM_TOKENS: `USDTE=${USDT},USDC=${USDC}`,
        KASSA_EVM_CONFIRMATIONS: "3",
        KASSA_EVM_MAX_FEE_GWEI: "50",
        KASSA_EVM_REPLACE_AFTER_SECONDS: "120",
        KASSA_EVM_SWEEP_MINIMUMS: "ETH=0.05,USDC=2.5",
      }),
    );
    expect(config.evm).toEqual({
      rpcUrl: "http://127.0.0.1:8545",
      mode: "sandbox",
      tokens: { USDTE: USDT, USDC },
      confirmations: 3,
      maxFeeGwei: 50,
      replaceAfterSeconds: 120,
      sweepMinimums: { ETH: 5_000_000n, USDC: 250_000_000n },
    });
    expect(loadConfig(env({ KASSA_EVM_RPC_URL: "http://127.0.0.1:8545" })).evm).toMatchObject({
      replaceAfterSeconds: 300,
      sweepMinimums: { ETH: 1_000_000n, USDTE: 1_000_000_000n, USDC: 1_000_000_000n },
    });
    expect(
      loadConfig(env({ KASSA_EVM_RPC_URL: "http://127.0.0.1:8545" })).evm?.maxFeeGwei,
      "the payout fee ceiling unless configured",
    ).toBe(200);
  });

  it.each([
    [{ KASSA_EVM_RPC_URL: "ws://127.0.0.1:8545" }, "KASSA_EVM_RPC_URL"],
    [{ KASSA_EVM_RPC_URL: "http://x", KASSA_EVM_TOKENS: `USDT=${USDT}` }, "KASSA_EVM_TOKENS"],
    [{ KASSA_EVM_RPC_URL: "http://x", KASSA_EVM_TOKENS: "USDC=0x1234" }, "KASSA_EVM_TOKENS"],
    [{ KASSA_EVM_RPC_URL: "http://x", KASSA_EVM_TOKENS: `USDC=${USDC},USDC=${USDT}` }, "USDC is given twice"],
    [{ KASSA_EVM_RPC_URL: "http://x", KASSA_EVM_CONFIRMATIONS: "0" }, "KASSA_EVM_CONFIRMATIONS"],
    [{ KASSA_EVM_RPC_URL: "http://x", KASSA_EVM_CONFIRMATIONS: "two" }, "KASSA_EVM_CONFIRMATIONS"],
    [{ KASSA_EVM_RPC_URL: "http://x", KASSA_EVM_MAX_FEE_GWEI: "0" }, "KASSA_EVM_MAX_FEE_GWEI"],
    [
      { KASSA_EVM_RPC_URL: "http://x", KASSA_EVM_REPLACE_AFTER_SECONDS: "0" },
      "KASSA_EVM_REPLACE_AFTER_SECONDS",
    ],
    [{ KASSA_EVM_RPC_URL: "http://x", KASSA_EVM_SWEEP_MINIMUMS: "BTC=1" }, "KASSA_EVM_SWEEP_MINIMUMS"],
    [
      { KASSA_EVM_RPC_URL: "http://x", KASSA_EVM_SWEEP_MINIMUMS: "ETH=0.123456789" },
      "KASSA_EVM_SWEEP_MINIMUMS",
    ],
  ])("refuse %j with a message naming the setting", (vars, named) => {
    expect(() => loadConfig(env(vars))).toThrow(ConfigError);
    expect(() => loadConfig(env(vars))).toThrow(named);
  });

  it("use the registry's mainnet contracts on chain id 1 only, where none is configured", () => {
    const config = { rpcUrl: "http://x", tokens: { USDC: USDC as `0x${string}` }, confirmations: undefined };
    expect(tokenContracts(config, 1).map((t) => [t.currency, t.address])).toEqual([
      ["USDTE", "0xdAC17F958D2ee523a2206206994597C13D831ec7"],
      ["USDC", USDC],
    ]);
    expect(tokenContracts(config, 31337).map((t) => t.currency)).toEqual(["USDC"]);
  });
});

describe("chain amounts to ledger amounts", () => {
  it("round wei down once to 10^-8 and keep the remainder as dust", () => {
    // 1.234567891234567891 ETH: 1.23456789 in the ledger, 0.000000001234567891 ETH of dust
    expect(toLedgerAmount(1_234_567_891_234_567_891n, 18)).toEqual({
      amount: 123_456_789n,
      dust: 1_234_567_891n,
    });
    expect(toLedgerAmount(9_999_999_999n, 18)).toEqual({ amount: 0n, dust: 9_999_999_999n });
  });

  it("convert 6-decimal token units exactly", () => {
    expect(toLedgerAmount(250_000_001n, 6)).toEqual({ amount: 25_000_000_100n, dust: 0n });
  });
});
