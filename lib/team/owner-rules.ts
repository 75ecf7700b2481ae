import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
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
 * The owners' rows are locked first, so two owners demoting each other at once cannot both pass.
 */
export async function assertAnotherOwner(
  tx: Executor,
  input: { merchantId: number; userId: number },
): Promise<void> {
  const owners = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.merchantId, input.merchantId), eq(users.role, "owner"), isNull(users.removedAt)))
    .for("update");
  if (!owners.some((owner) => owner.id !== input.userId))
    throw new KassaError(
      "bad_request",
      "A team needs at least one owner: make another member an owner first.",
    );
}
