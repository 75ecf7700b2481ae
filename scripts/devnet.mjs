// Local real chains with Kassa wired to them (README "Try a real chain"):
//   npm run devnet                        starts anvil, deploys test USDT and USDC, starts litecoind in
//                                         regtest when it is installed, starts Kassa on them
//   npm run devnet -- --no-server         the chain and the tokens only (Kassa started by you, env printed)
//   npm run --silent devnet -- pay <checkout URL>                      pays an invoice's remaining amount
//   npm run --silent devnet -- pay --to 0x… --currency USDTE --amount 12.5  pays any address (LTC: rltc1…)
// The chain, its state and Kassa's data live in .data-devnet/ (delete it to start over).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createPublicClient, createWalletClient, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { startAnvil } from "./anvil.mjs";
import { isLitecoindInstalled, litecoinRpc, startLitecoind } from "./litecoind.mjs";

const root = path.resolve(import.meta.dirname, "..");
const DIR = path.join(root, ".data-devnet");
const INFO = path.join(DIR, "devnet.json");
const artifact = JSON.parse(fs.readFileSync(path.join(root, "contracts", "TestToken.json"), "utf8"));
// anvil's well-known default accounts: #0 deploys, #1 is the customer's wallet. Test keys, worthless.
const DEPLOYER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const CUSTOMER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const TOKEN_DECIMALS = 6;

function clients(url, key) {
  const account = privateKeyToAccount(key);
  return {
    account,
    wallet: createWalletClient({ account, chain: foundry, transport: http(url) }),
    reader: createPublicClient({ chain: foundry, transport: http(url) }),
  };
}

async function deployToken(url, symbol, customer) {
  const { wallet, reader } = clients(url, DEPLOYER_KEY);
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [`Test ${symbol}`, symbol, TOKEN_DECIMALS],
  });
  const { contractAddress } = await reader.waitForTransactionReceipt({ hash });
  const mint = await wallet.writeContract({
    address: contractAddress,
    abi: artifact.abi,
    functionName: "mint",
    args: [customer, parseUnits("1000000", TOKEN_DECIMALS)],
  });
  await reader.waitForTransactionReceipt({ hash: mint });
  return contractAddress;
}

async function pay(argv) {
  if (!fs.existsSync(INFO)) throw new Error("no devnet is running here: start one with npm run devnet");
  const info = JSON.parse(fs.readFileSync(INFO, "utf8"));
  const flag = (name) => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  let to = flag("to");
  let currency = flag("currency");
  let amount = flag("amount");
  const checkout = argv.find((a) => /^https?:\/\//.test(a));
  if (checkout) {
    const url = new URL(checkout);
    const token = url.pathname.split("/").filter(Boolean).pop();
    const response = await fetch(new URL(`/api/checkout/${token}`, url.origin));
    if (!response.ok) throw new Error(`the checkout answered ${response.status}`);
    const invoice = await response.json();
    const data = invoice.data ?? invoice;
    if (!data.address)
      throw new Error("choose a currency on the checkout page first: the invoice has no address yet");
    to = data.address;
    currency = data.sender_currency;
    amount = amount ?? data.remaining_amount ?? data.sender_amount;
  }
  if (!to || !currency || !amount)
    throw new Error("usage: devnet pay <checkout URL> | pay --to 0x… --currency ETH|USDTE|USDC --amount 1.5");
  if (currency === "LTC") {
    if (!info.ltc)
      throw new Error("this devnet runs no litecoind (install it: sudo apt-get install litecoind)");
    // The node's own "customer" wallet pays, as a customer's wallet would; Kassa never uses it.
    const txid = await litecoinRpc({ ...info.ltc, wallet: "customer" }, "sendtoaddress", [
      to,
      String(amount),
    ]);
    console.log(`paid ${amount} LTC to ${to}, in the mempool: ${txid}`);
    return;
  }
  const { wallet, reader } = clients(info.rpcUrl, CUSTOMER_KEY);
  const hash =
    currency === "ETH"
      ? await wallet.sendTransaction({ to, value: parseUnits(String(amount), 18) })
      : await wallet.writeContract({
          address: info.tokens[currency],
          abi: artifact.abi,
          functionName: "transfer",
          args: [to, parseUnits(String(amount), TOKEN_DECIMALS)],
        });
  const receipt = await reader.waitForTransactionReceipt({ hash });
  console.log(`paid ${amount} ${currency} to ${to} in block ${receipt.blockNumber}: ${hash}`);
}

/**
 * litecoind in regtest, its chain kept in .data-devnet/litecoind: the customer's wallet funded by
 * mining (coinbase outputs mature after 100 blocks), then a block every 5 seconds for confirmations.
 */
async function startDevnetLitecoind() {
  const node = await startLitecoind({
    port: Number(process.env.KASSA_DEVNET_LTC_PORT ?? 19443),
    dir: path.join(DIR, "litecoind"),
  });
  const rpc = (method, params) => litecoinRpc(node, method, params);
  const own = await rpc("getnewaddress", ["", "bech32"]);
  if ((await rpc("getbalance")) < 100) await rpc("generatetoaddress", [101, own]);
  const miner = setInterval(() => void rpc("generatetoaddress", [1, own]).catch(() => {}), 5_000);
  return { node, miner, balance: await rpc("getbalance") };
}

async function start(argv) {
  fs.mkdirSync(DIR, { recursive: true });
  const state = path.join(DIR, "anvil-state.json");
  const isFresh = !fs.existsSync(INFO) || !fs.existsSync(state);
  // A block every 2 seconds besides the ones transactions make, so confirmations keep coming.
  const node = await startAnvil({
    port: Number(process.env.KASSA_DEVNET_PORT ?? 8545),
    dir: path.join(DIR, "anvil"),
    state,
    args: ["--block-time", "2"],
  });
  const customer = privateKeyToAccount(CUSTOMER_KEY).address;
  let info;
  if (isFresh) {
    info = {
      rpcUrl: node.url,
      tokens: {
        USDTE: await deployToken(node.url, "USDT", customer),
        USDC: await deployToken(node.url, "USDC", customer),
      },
    };
    fs.writeFileSync(INFO, `${JSON.stringify(info, null, 2)}\n`);
  } else {
    info = { ...JSON.parse(fs.readFileSync(INFO, "utf8")), rpcUrl: node.url };
  }
  const ltc = isLitecoindInstalled() ? await startDevnetLitecoind() : undefined;
  info.ltc = ltc && { port: ltc.node.port, user: ltc.node.user, password: ltc.node.password };
  fs.writeFileSync(INFO, `${JSON.stringify(info, null, 2)}\n`);
  const env = {
    ...(ltc && {
      KASSA_LTC_RPC_URL: ltc.node.url,
      KASSA_LTC_CONFIRMATIONS: process.env.KASSA_LTC_CONFIRMATIONS ?? "2",
    }),
    KASSA_EVM_RPC_URL: info.rpcUrl,
    KASSA_EVM_TOKENS: `USDTE=${info.tokens.USDTE},USDC=${info.tokens.USDC}`,
    KASSA_EVM_CONFIRMATIONS: process.env.KASSA_EVM_CONFIRMATIONS ?? "2",
    KASSA_DATA_DIR: process.env.KASSA_DATA_DIR ?? path.join(DIR, "kassa"),
  };
  console.log(`
Devnet: anvil at ${info.rpcUrl} (chain id 31337, a block every 2 seconds)
  test USDT (USDTE): ${info.tokens.USDTE}
  test USDC (USDC):  ${info.tokens.USDC}
Customer wallet (anvil account #1, 10,000 ETH, 1,000,000 USDT and USDC):
  address:     ${customer}
  private key: ${CUSTOMER_KEY}
${
  ltc
    ? `Litecoin: litecoind in regtest on 127.0.0.1:${ltc.node.port} (a block every 5 seconds); the customer
  pays from the node's own wallet (${ltc.balance} LTC)`
    : "Litecoin: litecoind is not installed, so LTC stays on the sandbox chain (sudo apt-get install litecoind)"
}
Pay an invoice (after choosing ETH, USDTE, USDC${ltc ? " or LTC" : ""} on its checkout page):
  npm run --silent devnet -- pay http://localhost:${process.env.PORT ?? 3000}/pay/<token>
Kassa's settings:
${Object.entries(env)
  .map(([key, value]) => `  ${key}=${value}`)
  .join("\n")}
`);
  let server;
  if (!argv.includes("--no-server")) {
    server = spawn("npm", ["start"], { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    server.on("exit", (code) => {
      void stopNodes().then(() => process.exit(code ?? 0));
    });
  }
  const stopNodes = async () => {
    if (ltc) clearInterval(ltc.miner);
    await Promise.all([node.stop(), ltc?.node.stop()]);
  };
  const stop = () => {
    if (server && server.exitCode === null) server.kill("SIGTERM");
    else void stopNodes().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === "pay") await pay(rest);
  else await start(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
