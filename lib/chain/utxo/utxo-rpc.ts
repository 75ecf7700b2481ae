import "server-only";

/**
 * A Bitcoin Core-family JSON-RPC endpoint (bitcoind, litecoind): `http://user:password@host:port`.
 * The credentials go into the Authorization header and nowhere else: `label` (what logs, errors and
 * the dashboard may show) has them removed.
 */
export type UtxoRpc = {
  /** The URL without its credentials: `http://127.0.0.1:19443`. */
  label: string;
  call: <T>(method: string, params?: unknown[]) => Promise<T>;
};

/** The URL without user and password, for anything a person or a log may read. */
export function redactRpcUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "(an unparseable RPC URL)";
  }
}

/** A node's error (the method failed there: an unknown block, a transaction not found), with its code. */
export class UtxoRpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** "No such mempool or blockchain transaction" (RPC_INVALID_ADDRESS_OR_KEY): the node does not know it. */
export const RPC_NOT_FOUND = -5;

/**
 * Amounts arrive as JSON numbers (`"value": 48.4999718`), which JSON.parse would turn into floats.
 * They are quoted before parsing, so the decimal text the node wrote reaches parseCoins exactly.
 */
function quoteAmounts(text: string): string {
  return text.replace(
    /"(value|fee|fees|amount|feerate|mempoolminfee|minrelaytxfee|incrementalfee)":\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/g,
    '"$1":"$2"',
  );
}

/**
 * A transaction as the node sees it (`getrawtransaction` verbose: in its mempool, or mined, which the
 * node finds only with -txindex), or null when it knows none.
 */
export async function findNodeTransaction<T>(rpc: UtxoRpc, txid: string): Promise<T | null> {
  try {
    return await rpc.call<T>("getrawtransaction", [txid, true]);
  } catch (error) {
    if (error instanceof UtxoRpcError && error.code === RPC_NOT_FOUND) return null;
    throw error;
  }
}

/** A node's decimal coin amount ("48.4999718") in base units (satoshi, litoshi), exactly. */
export function parseCoins(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,8}))?$/.exec(text);
  if (!match) throw new Error(`not a coin amount: ${text}`);
  return BigInt(match[1]!) * 100_000_000n + BigInt((match[2] ?? "").padEnd(8, "0"));
}

/**
 * The client: one POST per call, with a timeout (a node that hangs fails the call, and the watcher's
 * pass, instead of holding it forever). Errors name the method and the redacted URL only.
 */
export function utxoRpc(url: string, options: { timeoutMs?: number } = {}): UtxoRpc {
  const parsed = new URL(url);
  const authorization =
    parsed.username || parsed.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString("base64")}`
      : undefined;
  parsed.username = "";
  parsed.password = "";
  const endpoint = parsed.toString();
  const label = redactRpcUrl(url);
  const timeoutMs = options.timeoutMs ?? 10_000;
  let id = 0;
  return {
    label,
    call: async <T>(method: string, params: unknown[] = []): Promise<T> => {
      let text: string;
      let status: number;
      try {
        const response = await fetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
          body: JSON.stringify({ jsonrpc: "1.0", id: ++id, method, params }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        const reason =
          (error as Error).name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : "unreachable";
        throw new Error(`${method} at ${label}: ${reason}`);
      }
      if (status === 401 || status === 403)
        throw new Error(`${method} at ${label}: the node refused the credentials`);
      let body: { result: T; error: { code: number; message: string } | null };
      try {
        body = JSON.parse(quoteAmounts(text));
      } catch {
        throw new Error(`${method} at ${label}: HTTP ${status} without a JSON-RPC answer`);
      }
      if (body.error) throw new UtxoRpcError(`${method} at ${label}: ${body.error.message}`, body.error.code);
      return body.result;
    },
  };
}
