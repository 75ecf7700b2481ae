import "server-only";

import { eq } from "drizzle-orm";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { type Db, getDb } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { authOptions } from "./auth-options";
import { renewSessionCookie } from "./renew-session-cookie";

export type MerchantSession = { merchantId: number; userId: number; email: string };

/** The signed-in merchant, or undefined. */
export async function currentSession(): Promise<MerchantSession | undefined> {
  const session = (await getServerSession(authOptions())) as
    | (MerchantSession & { user?: { email?: string } })
    | null;
  if (!session?.merchantId) return undefined;
  return { merchantId: session.merchantId, userId: session.userId, email: session.user?.email ?? "" };
}

/** For dashboard pages: the session, or a redirect to sign-in; new merchants go through onboarding first. */
export async function requireSession(
  options: { allowOnboarding?: boolean } = {},
): Promise<MerchantSession & { merchantName: string }> {
  const session = await currentSession();
  if (!session) redirect("/login");
  const [merchant] = await getDb()
    .select({ name: merchants.name, onboardedAt: merchants.onboardedAt })
    .from(merchants)
    .where(eq(merchants.id, session.merchantId));
  if (!merchant) redirect("/login");
  if (!merchant.onboardedAt && !options.allowOnboarding) redirect("/onboarding");
  return { ...session, merchantName: merchant.name };
}

/**
 * For route handlers, after a password or second-factor change ended every session of the user: sets
 * this browser's renewed session cookie on the response, so the user stays signed in here, and only here.
 */
export async function keepSignedIn(db: Db, session: MerchantSession): Promise<void> {
  const cookie = await renewSessionCookie(db, session);
  if (cookie) (await cookies()).set(cookie);
}
