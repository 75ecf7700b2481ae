import "server-only";

import type { AccountKeys } from "@/lib/chain/account-keys";
import { loadAccountKeys } from "@/lib/chain/load-account-keys";
import type { Db } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import type { InvoiceSettings } from "@/lib/invoices/create-invoice";
import { getConfig, getSecretBox } from "@/lib/runtime";
import { requestPublicOrigin } from "./request-public-origin";

/**
 * Where links to Kassa's pages point (lib/api/public-origin.ts). Not `request.url`: through Next's
 * pipeline that is the address server.ts gave Next (http://localhost:PORT), not the one the client used.
 */
export function baseUrlFor(request: Request): string {
  return requestPublicOrigin(request.headers);
}

export function invoiceSettings(): InvoiceSettings {
  const config = getConfig();
  return {
    timerSeconds: config.invoiceTimerSeconds,
    pricing: config.pricing,
    callbackMode: config.mode,
  };
}

/** What web processes derive deposit addresses from: public keys only, never the seed (DESIGN.md section 5). */
export function accountKeys(db: Db): Promise<AccountKeys> {
  return loadAccountKeys(db, getSecretBox());
}

/** Sandbox endpoints do not exist in production mode: they answer like any unknown path. */
export function assertSandbox(): void {
  if (!getConfig().isSandbox) throw new KassaError("not_found", "Not found");
}
