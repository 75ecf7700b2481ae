export type ThrowawayPostgres = { url: string; dir: string; stop: () => void };
export function hasPostgres(): boolean;
export function startPostgres(options?: {
  port?: number;
  dir?: string;
  durable?: boolean;
}): Promise<ThrowawayPostgres>;
