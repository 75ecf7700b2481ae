import "server-only";

import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { settings } from "@/lib/db/schema";
import { MasterKeyError } from "./master-key";
import type { SecretBox } from "./secret-box";

const CHECK_KEY = "master_key_check";
const CONTEXT = "settings:master_key_check";

/**
 * Refuses to run with a master key other than the one the database's secrets were sealed with:
 * better a clear start-up error than every API request failing its signature check.
 */
export async function verifyMasterKey(db: Db, box: SecretBox): Promise<void> {
  await db
    .insert(settings)
    .values({ key: CHECK_KEY, value: box.seal("kassa", CONTEXT) })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, CHECK_KEY));
  try {
    if (row && box.open(row.value, CONTEXT) === "kassa") return;
  } catch {
    // falls through to the error below
  }
  throw new MasterKeyError(
    "The master key does not match the one this database was created with (KASSA_MASTER_KEY, or master.key in the data directory).",
  );
}
