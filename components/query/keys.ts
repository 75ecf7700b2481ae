/**
 * Every key the dashboard caches under, in one place, so a mutation invalidates exactly the data it
 * changes. A key's first element names its resource; invalidating it covers all of that resource's
 * queries (every filter of the transaction list, every quote).
 */
export const queryKeys = {
  balances: ["balances"],
  apiKeys: ["api-keys"],
  callbackUrl: ["callbacks", "url"],
  callbackLog: ["callbacks", "log"],
  callbackSettings: ["callbacks", "settings"],
  callbackKey: ["callbacks", "key"],
  transactions: ["transactions"],
  transactionList: (filterQuery: string) => ["transactions", "list", filterQuery],
  quotes: ["quote"],
  quote: (input: { source: string; target: string; amountField: string; amountValue: string }) => [
    "quote",
    input,
  ],
  outbox: ["sandbox", "outbox"],
  approvals: ["approvals"],
  team: ["team"],
  withdrawalLimits: ["withdrawal-limits"],
  reviews: ["reviews"],
  payoutBatches: ["payout-batches"],
  payoutBatch: (id: number) => ["payout-batches", id],
} as const;
