import "server-only";

import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { buildInvoiceCallback } from "./build-invoice-callback";
import { registerCallbackBody } from "./callback-bodies";

// Imported for this effect by every process that changes statuses (lib/host/boot.ts, and the test
// setup): an invoice's callback is the public API's invoice callback, every other the
// transactions/info object.
registerCallbackBody(["invoice"], buildInvoiceCallback);
registerCallbackBody(
  ["deposit", "withdrawal", "withdrawal_exchange", "withdrawal_instant", "exchange"],
  describeTransaction,
);
