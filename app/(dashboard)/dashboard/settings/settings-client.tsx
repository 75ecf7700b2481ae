"use client";

import { useState } from "react";
import { buttonClass, Field, secondaryButtonClass } from "@/components/forms/field";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { DashboardRequestError, dashboardFetch } from "@/lib/dashboard/client-api";

function PasswordForm() {
  const form = useKassaForm<{ current_password: string; new_password: string }>(loadSchema);
  const [message, setMessage] = useState<string | null>(null);
  const submit = form.handleSubmit(async (values) => {
    setMessage(null);
    try {
      await dashboardFetch("/api/dashboard/password", { body: values });
      form.reset();
      setMessage("Password changed.");
    } catch (caught) {
      setMessage(form.applyServerError(caught));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="password-title" className="max-w-md">
      <h2 id="password-title" className="text-xl font-semibold">
        Password
      </h2>
      <Field
        label="Current password"
        name="current_password"
        type="password"
        autoComplete="current-password"
        errors={errors}
        register={form.register("current_password")}
      />
      <Field
        label="New password"
        name="new_password"
        type="password"
        autoComplete="new-password"
        errors={errors}
        register={form.register("new_password")}
        hint="At least 10 characters."
      />
      <button type="submit" disabled={isSubmitting} className={`mt-3 ${buttonClass}`}>
        {isSubmitting ? "Saving…" : "Change password"}
      </button>
      {message && (
        <p aria-live="polite" className="mt-2 text-sm">
          {message}
        </p>
      )}
    </form>
  );
}

function TwoFactor({ hasTotp }: { hasTotp: boolean }) {
  const [isOn, setIsOn] = useState(hasTotp);
  const [setup, setSetup] = useState<{ secret: string; qr_svg: string } | null>(null);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fail = (caught: unknown) =>
    setError(
      caught instanceof DashboardRequestError
        ? (Object.values(caught.fields)[0] ?? caught.message)
        : "That did not work.",
    );
  return (
    <section aria-labelledby="totp-title" className="mt-8 max-w-md">
      <h2 id="totp-title" className="text-xl font-semibold">
        Two-factor sign-in
      </h2>
      <p className="mt-1 text-sm">
        {isOn
          ? "On: sign-in asks for a code from your authenticator app."
          : "Off. Turn it on to ask for a code from an authenticator app at sign-in."}
      </p>
      {codes && (
        <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <p role="alert" className="font-semibold">
            Keep these recovery codes somewhere safe. Each works once if you lose your phone.
          </p>
          <ul className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm">
            {codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </div>
      )}
      {!isOn && !setup && (
        <button
          type="button"
          className={`mt-3 ${buttonClass}`}
          onClick={async () => {
            setError(null);
            try {
              setSetup(await dashboardFetch("/api/dashboard/totp/setup", { body: {} }));
            } catch (caught) {
              fail(caught);
            }
          }}
        >
          Set up two-factor sign-in
        </button>
      )}
      {!isOn && setup && (
        <form
          className="mt-3"
          onSubmit={async (event) => {
            event.preventDefault();
            setError(null);
            try {
              const result = await dashboardFetch<{ recovery_codes: string[] }>(
                "/api/dashboard/totp/enable",
                { body: { secret: setup.secret, code } },
              );
              setCodes(result.recovery_codes);
              setIsOn(true);
              setSetup(null);
            } catch (caught) {
              fail(caught);
            }
          }}
        >
          <p className="text-sm">
            Scan this with your authenticator app, or enter the key by hand, then type the code it shows.
          </p>
          {/* biome-ignore lint/performance/noImgElement: an SVG drawn by Kassa's server from the otpauth URI */}
          <img
            alt="QR code for your authenticator app"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`}
            width={176}
            height={176}
            className="mt-2 rounded-md bg-white p-1"
          />
          <p className="mt-2 break-all font-mono text-sm">{setup.secret}</p>
          <label htmlFor="totp-code" className="mt-2 block text-sm font-medium">
            Code from the app
          </label>
          <input
            id="totp-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            className="mt-1 rounded-md border border-slate-300 px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
          />
          <button type="submit" className={`ml-2 ${buttonClass}`}>
            Turn on
          </button>
        </form>
      )}
      {isOn && (
        <form
          className="mt-3"
          onSubmit={async (event) => {
            event.preventDefault();
            setError(null);
            try {
              await dashboardFetch("/api/dashboard/totp/disable", { body: { password } });
              setIsOn(false);
              setCodes(null);
            } catch (caught) {
              fail(caught);
            }
          }}
        >
          <label htmlFor="totp-password" className="block text-sm font-medium">
            Your password, to turn it off
          </label>
          <input
            id="totp-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className="mt-1 rounded-md border border-slate-300 px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
          />
          <button type="submit" className={`ml-2 ${secondaryButtonClass}`}>
            Turn off
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </section>
  );
}

const loadSchema = () => import("@/lib/schemas/dashboard").then((m) => m.passwordRequest);

export function SettingsClient({ hasTotp }: { hasTotp: boolean }) {
  return (
    <>
      <h1 className="mb-4 text-2xl font-bold tracking-tight">Settings</h1>
      <PasswordForm />
      <TwoFactor hasTotp={hasTotp} />
    </>
  );
}
