import "server-only";

import { confirmUser } from "@/lib/auth/confirm-user";
import { findStepUpWindow } from "@/lib/auth/find-step-up-window";
import type { MerchantSession } from "@/lib/auth/merchant-session";
import type { Db } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import type { Confirmation } from "@/lib/team/sensitive-actions";

/** The answer the dashboard turns into its confirmation dialog (components/step-up/step-up-dialog.tsx). */
export const CONFIRMATION_REQUIRED_MESSAGE = "Confirm it is you to continue.";

/** A `step_up` action: refused with `confirmation_required` unless this session's window is open. */
export async function requireStepUp(db: Db, session: MerchantSession): Promise<void> {
  const until = await findStepUpWindow(db, { sessionId: session.sessionId, userId: session.userId });
  if (!until) throw new KassaError("confirmation_required", CONFIRMATION_REQUIRED_MESSAGE);
}

/** A `password` action: the current password from the body's field, throttled per user by confirmUser. */
export async function requireCurrentPassword(
  db: Db,
  input: {
    session: MerchantSession;
    confirmation: Extract<Confirmation, { kind: "password" }>;
    body: unknown;
  },
): Promise<void> {
  const { field } = input.confirmation;
  const value = (input.body as Record<string, unknown> | undefined)?.[field];
  await confirmUser(db, {
    userId: input.session.userId,
    ask: "password",
    password: typeof value === "string" ? value : "",
    field,
  });
}
