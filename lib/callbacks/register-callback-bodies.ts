import "server-only";

import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { buildInvoiceCallback } from "./build-invoice-callback";
import { registerCallbackBody } from "./callback-bodies";

// Imported for this effect wherever statuses change: the engine's boot (lib/host/boot.ts: route
// handlers, the worker, the CLI), the root layout (pages, a bundler runtime of their own) and the
// test setup. An invoice's callback is the public API's invoice callback, every other the
// transactions/info object.
registerCallbackBody(["invoice"], buildInvoiceCallback);
registerCallbackBody(
  ["deposit", "withdrawal", "withdrawal_exchange", "withdrawal_instant", "exchange"],
  describeTransaction,
);
