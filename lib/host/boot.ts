import "server-only";

import path from "node:path";
import "@/lib/callbacks/register-callback-bodies";
import { offeringFor } from "@/lib/chain/evm/evm-offering";
import { loadAccountKeys } from "@/lib/chain/load-account-keys";
import { withUtxoOfferings } from "@/lib/chain/utxo/utxo-offering";
import type { Config } from "@/lib/config";
import { loadMasterKey } from "@/lib/crypto/master-key";
import { SecretBox } from "@/lib/crypto/secret-box";
import { verifyMasterKey } from "@/lib/crypto/verify-master-key";
import { configureOffering } from "@/lib/currencies/offering";
import { syncCurrencies } from "@/lib/currencies/sync-currencies";
import { type DatabaseHandle, openDatabase } from "@/lib/db/client";
import { acquireDataDirLock, type DataDirLock, type LockInfo } from "@/lib/db/data-dir-lock";
import { prepareEmbeddedCluster, runMigrations } from "@/lib/db/migrate";
import { seedRates } from "@/lib/rates/rates";

export type Booted = { handle: DatabaseHandle; box: SecretBox; lock?: DataDirLock };

export const embeddedDatabaseDir = (config: Config) => path.join(config.dataDir, "pgdata");

/**
 * Opens the database the configuration names, ready to use: on the embedded database the
 * data-directory lock is taken first; migrations are applied, the currency registry written, and
 * the master key checked against the database.
 */
export async function bootDatabase(config: Config, role: LockInfo["role"]): Promise<Booted> {
  const lock = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir, role);
  try {
    // The key of the configuration given (a process booting its own: the one lib/runtime.ts reads too).
    const box = new SecretBox(loadMasterKey(config));
    if (!config.databaseUrl) await prepareEmbeddedCluster(embeddedDatabaseDir(config));
    const handle = await openDatabase(
      config.databaseUrl
        ? { kind: "pg", url: config.databaseUrl, poolSize: config.poolSize }
        : { kind: "pglite", dataDir: embeddedDatabaseDir(config) },
    );
    try {
      await runMigrations(handle);
      await syncCurrencies(handle.db);
      await seedRates(handle.db);
      await verifyMasterKey(handle.db, box);
      // Opens the seed only when the account keys are not stored yet (first boot, or after an upgrade).
      await loadAccountKeys(handle.db, box);
      // Which currencies are offered (production: only those with a real adapter; DESIGN.md section 5).
      configureOffering(await withUtxoOfferings(config, await offeringFor(config)));
    } catch (error) {
      await handle.close();
      throw error;
    }
    return { handle, box, lock };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
