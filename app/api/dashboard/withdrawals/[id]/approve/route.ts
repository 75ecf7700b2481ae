import { decideWithdrawalRoute } from "../decide-withdrawal-route";

/** Approves a pending withdrawal: it is sent as any other. Confirmed first. */
export const POST = decideWithdrawalRoute("approve");
