import { decideWithdrawalRoute } from "../decide-withdrawal-route";

/** Approves a pending withdrawal: it is sent as any other. Asks for the second factor first. */
export const POST = decideWithdrawalRoute("approve");
