import net from "node:net";
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  http,
  type PublicClient,
  parseAbi,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import artifact from "@/contracts/TestToken.json" with { type: "json" };
import { startAnvil } from "@/scripts/anvil.mjs";

/** anvil's first default account (a well-known test key, funded with 10,000 ETH at genesis). */
export const CUSTOMER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;
export const customer = privateKeyToAccount(CUSTOMER_KEY);

export const TOKEN_ABI = parseAbi([
  "function mint(address to, uint256 value)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function transferBatch(address[] to, uint256[] values) returns (bool)",
  "function balanceOf(address owner) view returns (uint256)",
  "function decimals() view returns (uint8)",
]);

export type AnvilNode = {
  url: string;
  dir: string;
  publicClient: PublicClient;
  stop: () => Promise<void>;
};

/**
 * A fresh anvil on its own loopback port for one test file (scripts/anvil.mjs), optionally with a
 * --state file, or another chain id than anvil's 31337 (1 plays a main network).
 */
export async function startTestAnvil(
  options: { dir?: string; state?: string; port?: number; chainId?: number } = {},
): Promise<AnvilNode> {
  const node = await startAnvil({
    dir: options.dir,
    state: options.state,
    port: options.port,
    chainId: options.chainId,
  });
  return {
    url: node.url,
    dir: node.dir,
    publicClient: createPublicClient({ chain: foundry, transport: http(node.url) }),
    stop: node.stop,
  };
}

/** A loopback port nothing listens on now (for a node a test starts later, at a URL it named before). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function walletFor(url: string) {
  return createWalletClient({ account: customer, chain: foundry, transport: http(url) });
}

export function testClientFor(url: string) {
  return createTestClient({ mode: "anvil", chain: foundry, transport: http(url) });
}

async function waitMined(url: string, hash: Hash) {
  const client = createPublicClient({ chain: foundry, transport: http(url) });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

/** Deploys a TestToken (contracts/TestToken.sol) and mints `supply` base units to the customer. */
export async function deployToken(
  url: string,
  input: { symbol: string; decimals: number; supply: bigint },
): Promise<Address> {
  const wallet = walletFor(url);
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode as `0x${string}`,
    args: [`Test ${input.symbol}`, input.symbol, input.decimals],
  });
  const receipt = await waitMined(url, hash);
  const token = receipt.contractAddress!;
  await waitMined(
    url,
    await wallet.writeContract({
      address: token,
      abi: TOKEN_ABI,
      functionName: "mint",
      args: [customer.address, input.supply],
    }),
  );
  return token;
}

/** The customer pays `value` wei to `to`; resolves with the receipt once mined. */
export async function payEth(url: string, input: { to: string; value: bigint }) {
  return waitMined(
    url,
    await walletFor(url).sendTransaction({ to: input.to as Address, value: input.value }),
  );
}

/** The customer pays `value` token base units to `to`. */
export async function payToken(url: string, input: { token: Address; to: string; value: bigint }) {
  return waitMined(
    url,
    await walletFor(url).writeContract({
      address: input.token,
      abi: TOKEN_ABI,
      functionName: "transfer",
      args: [input.to as Address, input.value],
    }),
  );
}

/** One transaction paying several addresses (one Transfer log each). */
export async function payTokenBatch(
  url: string,
  input: { token: Address; payments: { to: string; value: bigint }[] },
) {
  return waitMined(
    url,
    await walletFor(url).writeContract({
      address: input.token,
      abi: TOKEN_ABI,
      functionName: "transferBatch",
      args: [input.payments.map((p) => p.to as Address), input.payments.map((p) => p.value)],
    }),
  );
}

export async function mineBlocks(url: string, blocks: number): Promise<void> {
  await testClientFor(url).mine({ blocks });
}

/** Replaces the last `depth` blocks with empty ones (anvil_reorg): their transactions are gone. */
export async function reorg(url: string, depth: number): Promise<void> {
  await testClientFor(url).request({ method: "anvil_reorg" as never, params: [depth, []] as never });
}
