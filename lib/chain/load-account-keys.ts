import "server-only";

import { eq } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Executor } from "@/lib/db/client";
import { settings } from "@/lib/db/schema";
import { type AccountKeys, deriveAccountKeys, isCompleteAccountKeys } from "./account-keys";
import { loadHdSeed } from "./hd-seed";

const KEY = "hd_account_xpubs";
const CONTEXT = "settings:hd_account_xpubs";
let cached: AccountKeys | undefined;

/**
 * The account-level extended public keys deposit addresses are derived from (DESIGN.md section 5): derived
 * from the seed by the first process that finds them missing, then stored, so later reads never open the
 * seed (KASSA_JOBS=off never decrypts it). Stored sealed under the master key although public: the seal
 * stops a database write from swapping in an attacker's key to divert deposits.
 */
export async function loadAccountKeys(db: Executor, box: SecretBox): Promise<AccountKeys> {
  if (cached) return cached;
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY));
  const stored = row ? (JSON.parse(box.open(row.value, CONTEXT)) as AccountKeys) : null;
  if (stored && isCompleteAccountKeys(stored)) {
    cached = stored;
    return cached;
  }
  // Missing, or stored by a version that derived from fewer accounts: derive the full set once
  // (the same seed gives the same keys, so concurrent first boots write identical values).
  const keys = deriveAccountKeys(await loadHdSeed(db, box));
  const value = box.seal(JSON.stringify(keys), CONTEXT);
  await db
    .insert(settings)
    .values({ key: KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } });
  cached = keys;
  return cached;
}

/** For tests that open several databases in one process. */
export function forgetAccountKeys(): void {
  cached = undefined;
}
