export const LITECOIND: string;
export function isLitecoindInstalled(): boolean;

export type LitecoindNode = {
  port: number;
  user: string;
  password: string;
  /** The node's own wallet the customer pays from (tests, devnet); Kassa never uses it. */
  wallet: string | undefined;
  /** `http://user:password@127.0.0.1:port`, as KASSA_LTC_RPC_URL takes it. */
  url: string;
  dir: string;
  pid: number;
  stop: () => Promise<void>;
};

export function litecoinRpc<T = unknown>(
  node: Pick<LitecoindNode, "port" | "user" | "password" | "wallet">,
  method: string,
  params?: unknown[],
  timeoutMs?: number,
): Promise<T>;

export function startLitecoind(options?: {
  port?: number;
  dir?: string;
  detached?: boolean;
  /** "main" starts a peerless mainnet node (for tests of its refusal); regtest otherwise. */
  chain?: "regtest" | "main";
}): Promise<LitecoindNode>;
