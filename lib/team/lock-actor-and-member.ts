import "server-only";

import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { can, notAllowedMessage, type Role } from "./permissions";

type Member = { id: number; email: string; role: Role };

/**
 * Locks, in one statement and in id order, the acting member, the member being changed and every
 * owner of the team, and answers their current rows (`ownerIds`). A 404 when the member is not in
 * the team, a 403 when the actor no longer may manage it. docs/decisions/team-change-locks.md.
 */
export async function lockActorAndMember(
  tx: Executor,
  input: { merchantId: number; actorId: number; userId: number },
): Promise<{ actor: Member; member: Member; ownerIds: number[] }> {
  const rows = await tx
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(
      and(
        eq(users.merchantId, input.merchantId),
        isNull(users.removedAt),
        or(inArray(users.id, [input.actorId, input.userId]), eq(users.role, "owner")),
      ),
    )
    .orderBy(asc(users.id))
    .for("update");
  const actor = rows.find((row) => row.id === input.actorId);
  if (!actor) throw new KassaError("forbidden", "You are no longer a member of this team.");
  if (!can(actor.role, "team.manage")) throw new KassaError("forbidden", notAllowedMessage(actor.role));
  const member = rows.find((row) => row.id === input.userId);
  if (!member) throw new KassaError("not_found", "No such member of your team.");
  const ownerIds = rows.filter((row) => row.role === "owner").map((row) => row.id);
  return { actor, member, ownerIds };
}
