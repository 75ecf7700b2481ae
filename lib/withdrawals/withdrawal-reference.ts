import "server-only";

/** The reference a payout is broadcast under: the adapter sends each reference at most once. */
export const withdrawalReference = (withdrawalId: number) => `withdrawal:${withdrawalId}`;

/** The withdrawal a payout reference names (NaN for a reference of another kind, such as a sweep's). */
export const withdrawalIdOf = (reference: string) =>
  Number(/^withdrawal:(\d+)$/.exec(reference)?.[1] ?? Number.NaN);
