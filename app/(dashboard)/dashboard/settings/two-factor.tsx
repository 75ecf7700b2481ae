"use client";

import { useState } from "react";
import type { z } from "zod";
import { buttonClass, Field, secondaryButtonClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { useDisableTotp, useEnableTotp, useStartTotpSetup } from "@/components/query/use-settings";
import type { totpDisableRequest, totpEnableRequest } from "@/lib/schemas/dashboard";
import { RecoveryCodes } from "./recovery-codes";

type Setup = { secret: string; qr_svg: string };

// The secret is not typed by the merchant: it comes from the set-up and is sent along with the code.
const enableSchema = formSchema(() =>
  import("@/lib/schemas/dashboard").then((m) => m.totpEnableRequest.pick({ code: true, password: true })),
);
const disableSchema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.totpDisableRequest));

function EnableForm({ setup, onEnabled }: { setup: Setup; onEnabled: (codes: string[]) => void }) {
  const isHydrated = useIsHydrated();
  const form = useKassaForm<Pick<z.input<typeof totpEnableRequest>, "code" | "password">>(enableSchema, {
    defaultValues: { code: "", password: "" },
  });
  const enable = useEnableTotp();
  const submit = form.submitWith(async ({ code, password }) => {
    onEnabled((await enable.mutateAsync({ secret: setup.secret, code, password })).recovery_codes);
  });
  return (
    <form className="mt-3" onSubmit={submit} noValidate>
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
      <Field
        label="Code from the app"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        errors={form.formState.errors}
        register={form.register("code")}
      />
      {/* A stolen session must not be able to put its own authenticator on the account. */}
      <Field
        label="Your password, to turn it on"
        name="password"
        type="password"
        autoComplete="current-password"
        errors={form.formState.errors}
        register={form.register("password")}
      />
      <button
        type="submit"
        disabled={!isHydrated || form.formState.isSubmitting}
        className={`mt-3 ${buttonClass}`}
      >
        Turn on
      </button>
      <FormError message={form.formError} />
    </form>
  );
}

function DisableForm({ onDisabled }: { onDisabled: () => void }) {
  const isHydrated = useIsHydrated();
  const form = useKassaForm<z.input<typeof totpDisableRequest>>(disableSchema, {
    defaultValues: { password: "" },
  });
  const disable = useDisableTotp();
  const submit = form.submitWith(async (values) => {
    await disable.mutateAsync(values);
    onDisabled();
  });
  return (
    <form className="mt-3" onSubmit={submit} noValidate>
      <Field
        label="Your password, to turn it off"
        name="password"
        type="password"
        autoComplete="current-password"
        errors={form.formState.errors}
        register={form.register("password")}
      />
      <button
        type="submit"
        disabled={!isHydrated || form.formState.isSubmitting}
        className={`mt-3 ${secondaryButtonClass}`}
      >
        Turn off
      </button>
      <FormError message={form.formError} />
    </form>
  );
}

export function TwoFactor({ hasTotp }: { hasTotp: boolean }) {
  const [isOn, setIsOn] = useState(hasTotp);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const startSetup = useStartTotpSetup();
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
      {codes && <RecoveryCodes codes={codes} onSaved={() => setCodes(null)} />}
      {!isOn && !setup && (
        <>
          <button
            type="button"
            className={`mt-3 ${buttonClass}`}
            disabled={startSetup.isPending}
            onClick={() => startSetup.mutate(undefined, { onSuccess: setSetup })}
          >
            Set up two-factor sign-in
          </button>
          <FormError message={startSetup.error ? errorMessage(startSetup.error) : null} />
        </>
      )}
      {!isOn && setup && (
        <EnableForm
          setup={setup}
          onEnabled={(recoveryCodes) => {
            setCodes(recoveryCodes);
            setIsOn(true);
            setSetup(null);
          }}
        />
      )}
      {isOn && !codes && (
        <DisableForm
          onDisabled={() => {
            setIsOn(false);
            setCodes(null);
          }}
        />
      )}
    </section>
  );
}
