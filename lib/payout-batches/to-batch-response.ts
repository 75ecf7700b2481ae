import "server-only";

import type { PayoutBatchView } from "@/lib/schemas/payout-batches";

/** The API's view of a bulk payout: the dashboard's fields (who sent it, internal statuses, errors) left out. */
export function toBatchResponse(view: PayoutBatchView) {
  const { created_by_user_id: _creator, payouts, ...batch } = view;
  return {
    ...batch,
    payouts: payouts.map(({ internal_status: _status, error: _error, ...payout }) => payout),
  };
}
