import "server-only";

import { eq } from "drizzle-orm";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { json } from "@/lib/api/respond";
import { type Db, getDb } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { can, isRole, type Permission } from "@/lib/team/permissions";
import { authOptions } from "./auth-options";
import type { MerchantSession } from "./merchant-session";
import { renewSessionCookie } from "./renew-session-cookie";
import { loginPathFor, REQUEST_PATH_HEADER } from "./return-path";

/** Where a page the role may not use sends the browser: the dashboard's "not allowed" page. */
export const NOT_ALLOWED_PATH = "/dashboard/not-allowed";

/** The signed-in merchant, or undefined. */
export async function currentSession(): Promise<MerchantSession | undefined> {
  const session = (await getServerSession(authOptions())) as
    | (Partial<MerchantSession> & { user?: { email?: string } })
    | null;
  if (typeof session?.merchantId !== "number" || !isRole(session.role)) return undefined;
  return {
    merchantId: session.merchantId,
    userId: Number(session.userId),
    email: session.user?.email ?? "",
    role: session.role,
  };
}

/** Sign-in, then back to the page that was asked for (proxy.ts names it). */
async function redirectToLogin(): Promise<never> {
  redirect(loginPathFor((await headers()).get(REQUEST_PATH_HEADER)));
}

/**
 * For dashboard pages: the session, or a redirect to sign-in that comes back to this page; new
 * merchants go through onboarding first. With `permission`, a role without it is sent to the "not
 * allowed" page instead of the page.
 */
export async function requireSession(
  options: { allowOnboarding?: boolean; permission?: Permission } = {},
): Promise<MerchantSession & { merchantName: string }> {
  const session = await currentSession();
  if (!session) return redirectToLogin();
  const [merchant] = await getDb()
    .select({ name: merchants.name, onboardedAt: merchants.onboardedAt })
    .from(merchants)
    .where(eq(merchants.id, session.merchantId));
  if (!merchant) return redirectToLogin();
  if (!merchant.onboardedAt && !options.allowOnboarding) redirect("/onboarding");
  if (options.permission && !can(session.role, options.permission)) redirect(NOT_ALLOWED_PATH);
  return { ...session, merchantName: merchant.name };
}

/**
 * For route handlers, after a password or second-factor change ended every session of the user: the
 * answer `body`, carrying this browser's renewed session cookie, so the user stays signed in here,
 * and only here. Set on the response itself (not Next's cookie store), so the route stays a plain
 * function of its request.
 */
export async function keepSignedIn(db: Db, session: MerchantSession, body: unknown): Promise<Response> {
  const cookie = await renewSessionCookie(db, session);
  if (!cookie) return json(body);
  const attributes = [`Path=${cookie.path}`, `Max-Age=${cookie.maxAge}`, "HttpOnly", "SameSite=Lax"];
  if (cookie.secure) attributes.push("Secure");
  return json(body, 200, { "set-cookie": [`${cookie.name}=${cookie.value}`, ...attributes].join("; ") });
}
