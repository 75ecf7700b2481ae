import "server-only";

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { currentOffering, type Offering, realNetworkOf } from "@/lib/currencies/offering";
import { type Db, queryRows } from "@/lib/db/client";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";

export type DemoCredentials = {
  merchant_id: number;
  email: string;
  password: string;
  api_key: string;
  api_secret: string;
};

const FILE_NAME = "demo-credentials.json";
const DEMO_FUNDS: [string, string][] = [
  ["BTC", "1.5"],
  ["ETH", "20"],
  ["USDTT", "25000"],
  ["EUR", "10000"],
];

/**
 * First run in sandbox mode: a demo merchant with some sandbox funds, so the dashboard and the
 * API have something to show. Only simulated currencies are credited: with a real adapter on (the
 * EVM node), demo ETH would be paid out from the real hot wallet. Its credentials are kept (owner-only) in the data directory so
 * every start can print them again; the API secret exists nowhere else in clear.
 */
export async function seedDemoMerchant(
  db: Db,
  box: SecretBox,
  dataDir: string,
  offering: Offering | undefined = currentOffering(),
): Promise<DemoCredentials | undefined> {
  const file = path.join(dataDir, FILE_NAME);
  const [existing] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from merchants`,
  );
  if (Number(existing?.count ?? 0) > 0) return readDemoCredentials(dataDir);

  const password = `demo-${randomBytes(9).toString("base64url")}`;
  const created = await createMerchant(db, box, { name: "Demo Store", email: "demo@kassa.test", password });
  for (const [currency, amount] of DEMO_FUNDS.filter(([code]) => realNetworkOf(code, offering) === null)) {
    await creditSandboxBalance(db, {
      merchantId: created.merchantId,
      currency,
      amount: parseDecimal(amount),
      isSandbox: true,
      memo: "Demo funds",
      offering,
    });
  }
  const credentials: DemoCredentials = {
    merchant_id: created.merchantId,
    email: created.email,
    password,
    api_key: created.apiKey.key,
    api_secret: created.apiKey.secret,
  };
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}

export function readDemoCredentials(dataDir: string): DemoCredentials | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, FILE_NAME), "utf8")) as DemoCredentials;
  } catch {
    return undefined;
  }
}
