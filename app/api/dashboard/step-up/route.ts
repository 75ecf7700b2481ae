import { withSession } from "@/lib/api/with-session";
import { confirmUser } from "@/lib/auth/confirm-user";
import { openStepUpWindow } from "@/lib/auth/open-step-up-window";
import { KassaError } from "@/lib/errors";
import { getSecretBox } from "@/lib/runtime";
import { stepUpRequest } from "@/lib/schemas/dashboard";

/**
 * The confirmation dialog's answer: the user proves it is them again (confirmUser, wrong answers
 * throttled per user), and this session, only this one, may make sensitive changes for
 * STEP_UP_SECONDS (lib/team/sensitive-actions.ts says which).
 */
export const POST = withSession(
  { permission: "account.manage", request: stepUpRequest },
  async ({ db, session, body }) => {
    // A session from before sessions had an id cannot hold a window: a new sign-in gives it one.
    if (!session.sessionId) throw new KassaError("unauthorized", "Sign in again to confirm changes.");
    await confirmUser(db, { userId: session.userId, ask: "second_factor", box: getSecretBox(), ...body });
    const until = await openStepUpWindow(db, { sessionId: session.sessionId, userId: session.userId });
    return { expires_at: until.toISOString() };
  },
);
