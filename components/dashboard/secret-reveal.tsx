"use client";

import { CopyField } from "@/components/checkout/copy-field";

/** A new key pair: the secret is shown this once, with a copy button and a clear warning. */
export function SecretReveal({ apiKey, secret }: { apiKey: string; secret: string }) {
  return (
    <div className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <p role="alert" className="font-semibold">
        Copy the secret now: it will not be shown again.
      </p>
      <p className="mt-1 text-sm">
        Kassa keeps only an encrypted copy it cannot show. If you lose it, create a new key and revoke this
        one.
      </p>
      <CopyField label="API key" value={apiKey} />
      <CopyField label="API secret" value={secret} />
    </div>
  );
}
