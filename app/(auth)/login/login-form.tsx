"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { buttonClass } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";

const MESSAGES: Record<string, string> = {
  invalid: "The e-mail or password is not right.",
  locked: "Too many failed sign-ins. Wait 15 minutes and try again.",
  second_factor_required: "Enter the 6-digit code from your authenticator app.",
  second_factor_invalid: "That code is not right. Check the time on your phone, or use a recovery code.",
};

/** `returnTo` is the page to open once signed in, already checked on the server (safeReturnPath). */
export function LoginForm({ returnTo }: { returnTo: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [needsCode, setNeedsCode] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const isHydrated = useIsHydrated();
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setIsBusy(true);
    setError(null);
    const result = await signIn("credentials", {
      redirect: false,
      email: String(data.get("email") ?? ""),
      password: String(data.get("password") ?? ""),
      code: String(data.get("code") ?? ""),
    });
    setIsBusy(false);
    if (result?.ok && !result.error) {
      router.push(returnTo);
      router.refresh();
      return;
    }
    const reason = result?.error ?? "invalid";
    if (reason === "second_factor_required" || reason === "second_factor_invalid") setNeedsCode(true);
    setError(MESSAGES[reason] ?? "Sign-in did not work. Try again.");
  };
  const input =
    "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 dark:border-slate-600 dark:bg-slate-900";
  return (
    <form onSubmit={submit} className="mt-6" noValidate>
      <h1 className="text-2xl font-bold tracking-tight">Sign in</h1>
      <label htmlFor="email" className="mt-4 block text-sm font-medium">
        E-mail
      </label>
      <input id="email" name="email" type="email" autoComplete="username" required className={input} />
      <label htmlFor="password" className="mt-3 block text-sm font-medium">
        Password
      </label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        className={input}
      />
      {needsCode && (
        <>
          <label htmlFor="code" className="mt-3 block text-sm font-medium">
            Authenticator code or recovery code
          </label>
          <input id="code" name="code" inputMode="numeric" autoComplete="one-time-code" className={input} />
        </>
      )}
      <p className="mt-2 text-sm">
        <Link href="/forgot-password" className="text-indigo-700 underline dark:text-indigo-300">
          Forgot your password?
        </Link>
      </p>
      <FormError message={error} />
      <button type="submit" disabled={!isHydrated || isBusy} className={`mt-4 w-full ${buttonClass}`}>
        {isBusy ? "Signing in…" : "Sign in"}
      </button>
      <p className="mt-4 text-sm">
        New to Kassa?{" "}
        <Link href="/signup" className="text-indigo-700 underline dark:text-indigo-300">
          Create an account
        </Link>
      </p>
    </form>
  );
}
