export const ANVIL_CHAIN_ID: number;
export function anvilBinary(): string;
export type AnvilProcess = { url: string; port: number; dir: string; pid: number; stop: () => Promise<void> };
export function startAnvil(options?: {
  port?: number;
  dir?: string;
  state?: string;
  chainId?: number;
  detached?: boolean;
  args?: string[];
}): Promise<AnvilProcess>;
