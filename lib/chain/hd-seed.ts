import "server-only";

import { generateMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { eq } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Executor } from "@/lib/db/client";
import { settings } from "@/lib/db/schema";

const KEY = "hd_mnemonic";
const CONTEXT = "settings:hd_mnemonic";
let cached: Uint8Array | undefined;

/**
 * The HD wallet's seed: a 24-word BIP39 mnemonic generated on first start, stored sealed under
 * the master key (DESIGN.md section 5), so an operator can back it up and every instance derives
 * the same addresses. Kept in memory once opened, per copy of this module: the engine's (routes, jobs)
 * and the page renderer's each open it once; both read the same sealed row.
 */
export async function loadHdSeed(db: Executor, box: SecretBox): Promise<Uint8Array> {
  if (cached) return cached;
  await db
    .insert(settings)
    .values({ key: KEY, value: box.seal(generateMnemonic(wordlist, 256), CONTEXT) })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY));
  const seed = mnemonicToSeedSync(box.open(row!.value, CONTEXT));
  cached = seed;
  return seed;
}

/** For tests that open several databases in one process. */
export function forgetHdSeed(): void {
  cached = undefined;
}
