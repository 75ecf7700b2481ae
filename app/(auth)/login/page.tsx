import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeReturnPath } from "@/lib/auth/return-path";
import { currentSession } from "@/lib/auth/session";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<{ next?: string | string[]; callbackUrl?: string | string[] }>;

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const { next, callbackUrl } = await searchParams;
  // Anything that is not a dashboard path on this server is ignored, never followed (open redirects).
  const returnTo = safeReturnPath(next) ?? safeReturnPath(callbackUrl) ?? "/dashboard";
  if (await currentSession()) redirect(returnTo);
  return <LoginForm returnTo={returnTo} />;
}
