import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ConfigError } from "@/lib/config";
import { MasterKeyError } from "@/lib/crypto/master-key";
import { DataDirLockedError } from "@/lib/db/data-dir-lock";
import { bootDatabase } from "@/lib/host/boot";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { getConfig } from "@/lib/runtime";
import { seedBulk } from "@/lib/seed/seed-bulk";

/**
 * `npm run seed:bulk -- --transactions 1000000 [--merchant <id>] [--batch 20000]`: a year of
 * realistic history for one merchant (lib/seed/seed-bulk.ts), for measuring the explorer and the
 * lookups at scale. Without --merchant it creates a "Bulk Shop" merchant and writes its sign-in and
 * API credentials to bulk-credentials.json in the data directory. Sandbox mode only. On the embedded
 * database the server must be stopped (one process per data directory); on PostgreSQL it may run.
 */
const { values } = parseArgs({
  options: {
    transactions: { type: "string", default: "1000000" },
    merchant: { type: "string" },
    batch: { type: "string", default: "20000" },
  },
});
const count = Number(values.transactions);
const batchSize = Number(values.batch);
if (!Number.isInteger(count) || count < 1 || count > 50_000_000) {
  throw new Error("--transactions must be a whole number from 1 to 50,000,000");
}

async function main() {
  const config = getConfig();
  if (!config.isSandbox) throw new ConfigError("seed:bulk writes made-up history: sandbox mode only");
  const { handle, box, lock } = await bootDatabase(config, "cli");
  try {
    let merchantId = Number(values.merchant);
    if (!values.merchant) {
      const password = `bulk-${randomBytes(9).toString("base64url")}`;
      const suffix = randomBytes(3).toString("hex");
      const created = await createMerchant(handle.db, box, {
        name: "Bulk Shop",
        email: `bulk-${suffix}@kassa.test`,
        password,
      });
      merchantId = created.merchantId;
      const credentials = {
        merchant_id: merchantId,
        email: created.email,
        password,
        api_key: created.apiKey.key,
        api_secret: created.apiKey.secret,
      };
      const file = path.join(config.dataDir, "bulk-credentials.json");
      fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
      console.log(`merchant ${merchantId} "Bulk Shop": sign in as ${created.email} / ${password}`);
      console.log(`  API key and secret written to ${file}`);
    }
    const started = Date.now();
    const result = await seedBulk(handle.db, {
      merchantId,
      transactions: count,
      batchSize,
      onProgress: (done, total) => {
        const seconds = (Date.now() - started) / 1000;
        const eta = Math.round((seconds / done) * (total - done));
        process.stdout.write(
          `\r  ${done.toLocaleString("en")} / ${total.toLocaleString("en")} transactions, ${Math.round(done / seconds).toLocaleString("en")}/s, about ${eta} s left   `,
        );
      },
    });
    console.log(
      `\nseeded transactions ${result.firstId}..${result.lastId} for merchant ${merchantId} in ${result.seconds} s`,
    );
  } finally {
    await handle.close();
    lock?.release();
  }
}

main().catch((error) => {
  const isExpected =
    error instanceof DataDirLockedError || error instanceof MasterKeyError || error instanceof ConfigError;
  console.error(isExpected ? `seed:bulk could not run: ${error.message}` : error);
  process.exit(1);
});
