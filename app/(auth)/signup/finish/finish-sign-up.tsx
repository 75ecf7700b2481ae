"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useEffect, useRef, useState } from "react";
import { buttonClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { dashboardFetch } from "@/components/query/dashboard-fetch";
import { takeLinkToken } from "../../take-link-token";

type State = { step: "opening" } | { step: "failed"; message: string } | { step: "ready"; email: string };

const link = "text-indigo-700 underline dark:text-indigo-300";

/** Opens the sign-up link once, then signs the new merchant in with the password they chose and goes to onboarding. */
export function FinishSignUp() {
  const router = useRouter();
  const [state, setState] = useState<State>({ step: "opening" });
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const isHydrated = useIsHydrated();
  const isOpened = useRef(false);
  useEffect(() => {
    if (isOpened.current) return; // the link works once: React's development double effect must not spend it
    isOpened.current = true;
    const token = takeLinkToken();
    if (!token) {
      setState({
        step: "failed",
        message: "This link is incomplete. Open the link from the e-mail as it is.",
      });
      return;
    }
    dashboardFetch<{ email: string }>("/api/dashboard/signup/confirm", { body: { token } }).then(
      (created) => setState({ step: "ready", email: created.email }),
      (caught: unknown) => setState({ step: "failed", message: errorMessage(caught) }),
    );
  }, []);
  if (state.step === "opening") return <p className="mt-6">Creating your account…</p>;
  if (state.step === "failed")
    return (
      <section className="mt-6">
        <h1 className="text-2xl font-bold tracking-tight">The account was not created</h1>
        <p role="alert" className="mt-4">
          {state.message}
        </p>
        <p className="mt-4 text-sm">
          <Link href="/signup" className={link}>
            Sign up again
          </Link>{" "}
          or{" "}
          <Link href="/login" className={link}>
            sign in
          </Link>
          .
        </p>
      </section>
    );
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    setIsBusy(true);
    setError(null);
    const result = await signIn("credentials", { redirect: false, email: state.email, password });
    setIsBusy(false);
    if (result?.ok && !result.error) {
      router.push("/onboarding");
      return;
    }
    setError("That password is not the one you chose. Try again.");
  };
  return (
    <form onSubmit={submit} className="mt-6" noValidate>
      <h1 className="text-2xl font-bold tracking-tight">Your account is ready</h1>
      <p className="mt-2">Sign in as {state.email} with the password you chose to set it up.</p>
      <input type="hidden" name="username" autoComplete="username" value={state.email} readOnly />
      <label htmlFor="password" className="mt-3 block text-sm font-medium">
        Password
      </label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base dark:border-slate-600 dark:bg-slate-900"
      />
      <FormError message={error} />
      <button type="submit" disabled={!isHydrated || isBusy} className={`mt-4 w-full ${buttonClass}`}>
        {isBusy ? "Signing in…" : "Sign in and continue"}
      </button>
    </form>
  );
}
