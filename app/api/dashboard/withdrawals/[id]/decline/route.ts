import { decideWithdrawalRoute } from "../decide-withdrawal-route";

/** Declines a pending withdrawal: its funds return to the balance. Confirmed first. */
export const POST = decideWithdrawalRoute("decline");
