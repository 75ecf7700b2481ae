import net from "node:net";
import { describe, expect, it } from "vitest";
import { parseCoins, redactRpcUrl, utxoRpc } from "@/lib/chain/utxo/utxo-rpc";
import { loadConfig } from "@/lib/config";
import { type Offering, replaceNetwork } from "@/lib/currencies/offering";

const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;
const PASSWORD = "pa55-w0rd-never-shown";

describe("KASSA_BTC_* and KASSA_LTC_* settings", () => {
  it("turn each coin's adapter on with its node, and leave it off without one", () => {
    expect(loadConfig(env({})).utxo).toEqual({});
    const config = loadConfig(
      env({ KASSA_LTC_RPC_URL: `http://kassa:${PASSWORD}@127.0.0.1:19443`, KASSA_LTC_CONFIRMATIONS: "3" }),
    );
    expect(config.utxo).toEqual({
      LTC: { rpcUrl: `http://kassa:${PASSWORD}@127.0.0.1:19443`, confirmations: 3 },
    });
    expect(loadConfig(env({ KASSA_BTC_RPC_URL: "http://u:p@node:8332" })).utxo.BTC).toEqual({
      rpcUrl: "http://u:p@node:8332",
      confirmations: undefined,
    });
  });

  it("refuse confirmations without a node, and a malformed URL without echoing it", () => {
    expect(() => loadConfig(env({ KASSA_BTC_CONFIRMATIONS: "2" }))).toThrow(
      "KASSA_BTC_CONFIRMATIONS: needs KASSA_BTC_RPC_URL",
    );
    let message = "";
    try {
      loadConfig(env({ KASSA_LTC_RPC_URL: `ftp://kassa:${PASSWORD}@node` }));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("KASSA_LTC_RPC_URL: must be an http://user:password@host:port URL");
    expect(message).not.toContain(PASSWORD);
  });
});

describe("the node's RPC client", () => {
  it("never puts the credentials in what it shows or throws", async () => {
    expect(redactRpcUrl(`http://kassa:${PASSWORD}@127.0.0.1:19443`)).toBe("http://127.0.0.1:19443");
    // A port nothing listens on: refused at once (the timeout is far off, so a loaded machine cannot turn
    // the refusal into a timeout); the error names the method and the redacted URL only.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const rpc = utxoRpc(`http://kassa:${PASSWORD}@127.0.0.1:${port}`, { timeoutMs: 10_000 });
    expect(rpc.label).toBe(`http://127.0.0.1:${port}`);
    const error = (await rpc.call("getblockchaininfo").catch((e: Error) => e)) as Error;
    expect(error.message).toBe(`getblockchaininfo at http://127.0.0.1:${port}: unreachable`);
    expect(`${error.message}${error.stack}${JSON.stringify(error)}`).not.toContain(PASSWORD);
  });

  it("reads the node's decimal amounts exactly in base units", () => {
    expect(parseCoins("48.4999718")).toBe(4_849_997_180n);
    expect(parseCoins("0.00000001")).toBe(1n);
    expect(parseCoins("20999999.97690000")).toBe(2_099_999_997_690_000n);
    expect(() => parseCoins("1e-8")).toThrow();
    expect(() => parseCoins("0.123456789")).toThrow();
  });
});

describe("one network's part of the offering", () => {
  it("is replaced without touching the others' (a watcher connecting updates its own chain only)", () => {
    const evm: Offering = {
      mode: "production",
      realNetworks: { ethereum: "Ethereum (chain id 1)" },
      realCurrencies: ["ETH", "USDTE"],
      contracts: { USDTE: "0xdac17f958d2ee523a2206206994597c13d831ec7" },
      chainIds: { ethereum: 1 },
      decimals: { USDTE: 6 },
      confirmations: { ETH: 3 },
    };
    const litecoin: Offering = {
      mode: "production",
      realNetworks: { litecoin: "Litecoin" },
      realCurrencies: ["LTC"],
      contracts: {},
      chainIds: {},
      decimals: {},
      confirmations: { LTC: 4 },
      nets: { litecoin: "mainnet" },
    };
    const both = replaceNetwork(evm, "litecoin", litecoin);
    expect(both).toEqual({
      ...evm,
      realNetworks: { ethereum: "Ethereum (chain id 1)", litecoin: "Litecoin" },
      realCurrencies: ["ETH", "USDTE", "LTC"],
      confirmations: { ETH: 3, LTC: 4 },
      nets: { litecoin: "mainnet" },
    });
    // Ethereum reconnects with another chain id: Litecoin's part stays.
    const again = replaceNetwork(both, "ethereum", {
      ...evm,
      chainIds: { ethereum: 5 },
      realCurrencies: ["ETH"],
    });
    expect(again.chainIds).toEqual({ ethereum: 5 });
    expect(again.realCurrencies).toEqual(["LTC", "ETH"]);
    expect(again.realNetworks.litecoin).toBe("Litecoin");
    expect(again.confirmations).toEqual({ LTC: 4, ETH: 3 });
  });
});
