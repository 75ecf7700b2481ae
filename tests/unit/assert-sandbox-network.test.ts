import { describe, expect, it } from "vitest";
import { assertSandboxNetwork, MainNetworkInSandboxError } from "@/lib/chain/assert-sandbox-network";
import { ConfigError } from "@/lib/config";

describe("assertSandboxNetwork", () => {
  it("refuses a main network in sandbox mode, EVM or UTXO, as a configuration error that names it", () => {
    for (const chainId of [1, 137, 8453]) {
      const refused = () => assertSandboxNetwork("sandbox", { kind: "evm", chainId });
      expect(refused).toThrow(MainNetworkInSandboxError);
      expect(refused).toThrow(`chain id ${chainId}`);
    }
    const utxo = () => assertSandboxNetwork("sandbox", { kind: "utxo", currency: "LTC", chain: "main" });
    expect(utxo).toThrow(ConfigError);
    expect(utxo).toThrow(/LTC's main network.*KASSA_LTC_RPC_URL/);
  });

  it("accepts test networks and local nodes in sandbox mode, and any network in production", () => {
    for (const chainId of [31_337, 11_155_111, 17_000])
      expect(() => assertSandboxNetwork("sandbox", { kind: "evm", chainId })).not.toThrow();
    for (const chain of ["test", "testnet4", "signet", "regtest"])
      expect(() => assertSandboxNetwork("sandbox", { kind: "utxo", currency: "BTC", chain })).not.toThrow();
    expect(() => assertSandboxNetwork("production", { kind: "evm", chainId: 1 })).not.toThrow();
    expect(() =>
      assertSandboxNetwork("production", { kind: "utxo", currency: "BTC", chain: "main" }),
    ).not.toThrow();
  });
});
