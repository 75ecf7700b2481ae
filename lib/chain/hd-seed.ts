import "server-only";

import { generateMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { eq } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Executor } from "@/lib/db/client";
import { settings } from "@/lib/db/schema";

const KEY = "hd_mnemonic";
const CONTEXT = "settings:hd_mnemonic";
const SLOT = Symbol.for("kassa.hdSeed");
type Slot = { [SLOT]?: Uint8Array };

/**
 * The HD wallet's seed: a 24-word BIP39 mnemonic generated on first start, stored sealed under
 * the master key (DESIGN.md section 5), so an operator can back it up and every instance derives
 * the same addresses. Kept in memory on globalThis once opened.
 */
export async function loadHdSeed(db: Executor, box: SecretBox): Promise<Uint8Array> {
  const slot = globalThis as Slot;
  if (slot[SLOT]) return slot[SLOT];
  await db
    .insert(settings)
    .values({ key: KEY, value: box.seal(generateMnemonic(wordlist, 256), CONTEXT) })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY));
  const seed = mnemonicToSeedSync(box.open(row!.value, CONTEXT));
  slot[SLOT] = seed;
  return seed;
}

/** For tests that open several databases in one process. */
export function forgetHdSeed(): void {
  delete (globalThis as Slot)[SLOT];
}
