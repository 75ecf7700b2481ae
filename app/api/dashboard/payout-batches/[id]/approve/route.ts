import { decidePayoutBatchRoute } from "../decide-payout-batch-route";

export const POST = decidePayoutBatchRoute("approve");
