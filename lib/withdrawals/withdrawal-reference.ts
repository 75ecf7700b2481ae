import "server-only";

/** The reference a payout is broadcast under: the adapter sends each reference at most once. */
export const withdrawalReference = (withdrawalId: number) => `withdrawal:${withdrawalId}`;
