import "server-only";

import type { Role } from "@/lib/team/permissions";

/** A signed-in member; `sessionId` names this sign-in (absent in sessions from before it existed). */
export type MerchantSession = {
  merchantId: number;
  userId: number;
  email: string;
  role: Role;
  sessionId?: string;
};
