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
 * The account-level extended public keys every process derives deposit addresses from (DESIGN.md
 * section 5). They are derived from the seed once, by the first process that finds them missing
 * (the first boot of an installation, or the first boot after an upgrade, which is when the seed is
 * generated or already exists), and stored; from then on reading them never opens the seed, so a
 * server with KASSA_JOBS=off never decrypts it. They are public, but stored sealed under the master
 * key all the same: the seal authenticates them, so a write to the database cannot swap in an
 * attacker's key and divert deposits to addresses the attacker controls.
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
