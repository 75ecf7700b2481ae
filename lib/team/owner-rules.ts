import "server-only";

import { KassaError } from "@/lib/errors";
import type { Role } from "./permissions";

/**
 * Admins manage the team except its owners: only an owner invites an owner, makes someone an
 * owner, or changes or removes an owner. `target` is the member's current role, `next` the role
 * being given (absent for a removal).
 */
export function assertMayManageRole(actor: Role, change: { target?: Role; next?: Role }): void {
  if (actor === "owner") return;
  if (change.target === "owner" || change.next === "owner")
    throw new KassaError("forbidden", "Only an owner can invite, change or remove an owner.");
}

/**
 * Refuses to leave the team without an owner: another active owner must remain besides `userId`.
 * `ownerIds` are the owners lockActorAndMember locked, so two owners stepping down at once cannot
 * both pass (the second reads the first's change once it holds the locks).
 */
export function assertAnotherOwner(input: { ownerIds: number[]; userId: number }): void {
  if (!input.ownerIds.some((id) => id !== input.userId))
    throw new KassaError(
      "bad_request",
      "A team needs at least one owner: make another member an owner first.",
    );
}
