import "server-only";

import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { can, notAllowedMessage, type Role } from "./permissions";

type Member = { id: number; email: string; role: Role };

/**
 * Locks the acting member and the member being changed, both rows in id order (two admins
 * removing each other at once then queue instead of deadlocking), and answers their current
 * rows. The actor's role is the one in the database now, not the one their session was issued
 * with: an admin demoted or removed a moment ago cannot still manage the team. A 404 when the
 * member is not in the team, a 403 when the actor no longer may manage it.
 */
export async function lockActorAndMember(
  tx: Executor,
  input: { merchantId: number; actorId: number; userId: number },
): Promise<{ actor: Member; member: Member }> {
  const rows = await tx
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(
      and(
        inArray(users.id, [input.actorId, input.userId]),
        eq(users.merchantId, input.merchantId),
        isNull(users.removedAt),
      ),
    )
    .orderBy(asc(users.id))
    .for("update");
  const actor = rows.find((row) => row.id === input.actorId);
  if (!actor) throw new KassaError("forbidden", "You are no longer a member of this team.");
  if (!can(actor.role, "team.manage")) throw new KassaError("forbidden", notAllowedMessage(actor.role));
  const member = rows.find((row) => row.id === input.userId);
  if (!member) throw new KassaError("not_found", "No such member of your team.");
  return { actor, member };
}
