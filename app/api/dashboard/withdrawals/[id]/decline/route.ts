import { decideWithdrawalRoute } from "../decide-withdrawal-route";

/** Declines a pending withdrawal: its funds return to the balance. Asks for the second factor first. */
export const POST = decideWithdrawalRoute("decline");
