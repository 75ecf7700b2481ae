"use client";

import type { z } from "zod";
import { buttonClass, selectClass } from "@/components/forms/field";
import { selectDefault } from "@/components/forms/field-defaults";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { type CallbackKeyState, useCallbackKey, useSaveCallbackKey } from "@/components/query/use-callbacks";
import type { callbackKeyRequest } from "@/lib/schemas/dashboard";

const schema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.callbackKeyRequest));

const name = (key: { key: string; label: string }) => `${key.label} (${key.key})`;

/** Which key signs what, and what is wrong when no key can sign the dashboard's callbacks. */
function CurrentKey({ state }: { state: CallbackKeyState }) {
  const { chosen, signing, problem } = state;
  if (problem === "none_chosen")
    return (
      <p className="mt-2 rounded-md border border-amber-300 p-3 text-sm dark:border-amber-800" role="alert">
        No callback key is chosen. Callbacks of transactions made in the dashboard are not sent until an owner
        chooses one: they wait and are retried, and the delivery log below says why.
      </p>
    );
  if (problem === "revoked" && chosen)
    return (
      <p className="mt-2 rounded-md border border-amber-300 p-3 text-sm dark:border-amber-800" role="alert">
        The callback key <span className="break-all font-mono">{name(chosen)}</span>{" "}
        {chosen.is_revoked ? "is revoked" : "no longer works (rolled, and its replacement revoked)"}. Nothing
        is signed with another key instead: callbacks that need it wait until an owner chooses a new one.
      </p>
    );
  return (
    <p className="mt-2 text-sm">
      Callback key: <span className="break-all font-mono">{signing && name(signing)}</span>
      {chosen && signing && chosen.id !== signing.id && <> (it replaced the rolled key {chosen.key})</>}
    </p>
  );
}

/** The owner's choice of callback key, confirmed in the dashboard's one dialog (components/step-up). */
function ChooseKeyForm({ state }: { state: CallbackKeyState }) {
  const isHydrated = useIsHydrated();
  const save = useSaveCallbackKey();
  const form = useKassaForm<z.input<typeof callbackKeyRequest>>(schema, {
    defaultValues: { key_id: state.signing?.id ?? state.candidates[0]?.id },
  });
  const submit = form.submitWith(async (values) => {
    await save.mutateAsync(values);
  });
  if (state.candidates.length === 0)
    return (
      <p className="mt-2 text-sm">
        You have no active API key that may move money. Create one under API keys, then choose it here.
      </p>
    );
  const error = form.formState.errors.key_id?.message;
  // The button appears once another key is selected: there is nothing to save before.
  const isChange = form.watch("key_id") !== state.signing?.id;
  return (
    <form className="mt-2 max-w-2xl" onSubmit={submit} noValidate>
      <label htmlFor="callback-key-id" className="block text-sm font-medium">
        Sign with
      </label>
      <select
        id="callback-key-id"
        className={`mt-1 w-full ${selectClass}`}
        aria-invalid={error ? true : undefined}
        defaultValue={selectDefault(form, "key_id")}
        {...form.register("key_id", { valueAsNumber: true })}
      >
        {state.candidates.map((key) => (
          <option key={key.id} value={key.id}>
            {name(key)}
          </option>
        ))}
      </select>
      {error && <p className="mt-1 text-sm text-red-700 dark:text-red-300">{error}</p>}
      {isChange && (
        <>
          <FormError message={form.formError} />
          <button type="submit" disabled={!isHydrated || save.isPending} className={`mt-2 ${buttonClass}`}>
            {save.isPending ? "Saving…" : "Use this key"}
          </button>
        </>
      )}
      <p className="mt-1 text-sm" role="status">
        {save.isSuccess && !isChange
          ? `Saved. ${name(save.data.callback_key)} signs from the next try on.`
          : ""}
      </p>
    </form>
  );
}

/**
 * The key that signs callbacks, in plain words: each transaction's own key, and the designated
 * callback key for everything else, which only an owner chooses.
 */
export function CallbackKey({ isOwner }: { isOwner: boolean }) {
  const state = useCallbackKey();
  return (
    <section className="mt-8 max-w-2xl" aria-labelledby="callback-key">
      <h2 id="callback-key" className="text-xl font-semibold">
        Signing key
      </h2>
      <p className="mt-2 text-sm">
        A callback is signed by the API key that created its transaction: the key of the request that made the
        invoice, payout or exchange, or took the deposit address. Everything else is signed by the callback
        key chosen here: what was made in the dashboard, test callbacks, and transactions whose key was
        revoked. Creating a new API key changes none of this. When a key is rolled, callbacks carry both
        keys&apos; signatures until the old key stops working; then the new key signs. A revoked key never
        signs.
      </p>
      {state.data && <CurrentKey state={state.data} />}
      {state.data &&
        (isOwner ? (
          <ChooseKeyForm state={state.data} />
        ) : (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            Only an owner can choose the callback key.
          </p>
        ))}
    </section>
  );
}
