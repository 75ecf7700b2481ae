import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { errorResponse } from "@/lib/api/error-response";
import { authOptions } from "@/lib/auth/auth-options";
import { fieldError, KassaError } from "@/lib/errors";

type Context = { params: Promise<{ nextauth: string[] }> };

const badCallbackUrl = () =>
  errorResponse(
    fieldError({ callbackUrl: "The callback URL must be a path or an http(s) URL." }),
    "dashboard",
  );

/**
 * next-auth parses a body sent as JSON without a guard, so anything else (a form sent with the wrong
 * type, a bare string) is a 500 of its own. Only a JSON object gets through; the server has already
 * capped the body's length (server/create-request-handler.ts), so reading a copy here is bounded.
 */
async function isUnreadableJson(request: NextRequest): Promise<boolean> {
  if (request.method !== "POST" || !request.headers.get("content-type")?.includes("application/json"))
    return false;
  try {
    const value: unknown = JSON.parse(await request.clone().text());
    return value === null || typeof value !== "object" || Array.isArray(value);
  } catch {
    return true;
  }
}

/** next-auth's own test of a callback URL (a path, or an absolute http(s) URL), which it answers with a 500. */
function isHttpUrl(value: string, base: string): boolean {
  try {
    return /^https?:$/.test(new URL(value, value.startsWith("/") ? base : undefined).protocol);
  } catch {
    return false;
  }
}

/**
 * The requests next-auth answers with a 500 although the client is at fault, answered here with a
 * 4xx instead: a body that is not the JSON it says, a callback URL (query or cookie) that is not a
 * path or an http(s) URL, and the credentials callback by any method but POST.
 */
async function handler(request: NextRequest, context: Context) {
  const [action, provider] = (await context.params).nextauth ?? [];
  if (action === "callback" && provider === "credentials" && request.method !== "POST")
    return errorResponse(new KassaError("method_not_allowed", "Sign in with a POST."), "dashboard");
  if (await isUnreadableJson(request))
    return errorResponse(new KassaError("bad_content_format", "Bad content format"), "dashboard");
  const callbackUrl = request.nextUrl.searchParams.get("callbackUrl");
  if (callbackUrl && !isHttpUrl(callbackUrl, request.nextUrl.origin)) return badCallbackUrl();
  const cookie = request.cookies.getAll().find((c) => c.name.endsWith("next-auth.callback-url"));
  if (cookie?.value && !isHttpUrl(cookie.value, request.nextUrl.origin)) {
    // The browser's own cookie: clear it, so that its next attempt goes through.
    const answer = badCallbackUrl();
    answer.headers.append("set-cookie", `${cookie.name}=; Path=/; Max-Age=0`);
    return answer;
  }
  return NextAuth(authOptions())(request, { params: context.params });
}

export { handler as GET, handler as POST };
