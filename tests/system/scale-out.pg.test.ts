import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { ledgerInvariants } from "../support/ledger";
import {
  createInstallation,
  fundedMerchant,
  type Installation,
  invoiceBody,
  type KassaProcess,
  kill,
  signed,
  startCallbackReceiver,
  startKassa,
  withdrawalBody,
} from "./harness";

describe("two app servers and two workers on one PostgreSQL", () => {
  let installation: Installation;
  let processes: KassaProcess[] = [];
  let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;

  beforeAll(async () => {
    installation = await createInstallation();
    receiver = await startCallbackReceiver();
    const servers = { KASSA_JOBS: "off", KASSA_RATE_LIMIT_PER_SECOND: "0" };
    processes = [
      await startKassa(installation, { env: servers }),
      await startKassa(installation, { env: servers }),
      await startKassa(installation, { entry: "worker.ts", env: { KASSA_JOB_LEASE_SECONDS: "5" } }),
      await startKassa(installation, { entry: "worker.ts", env: { KASSA_JOB_LEASE_SECONDS: "5" } }),
    ];
  });
  afterAll(async () => {
    for (const p of processes) await kill(p, "SIGTERM");
    receiver.close();
    await installation.cleanup();
  });

  it("keeps every promise under a mixed load spread over both servers", async () => {
    const [a, b] = processes as [KassaProcess, KassaProcess];
    // 40 withdrawals of 0.1 LTC + 0.0001 LTC network fee: exactly 4.004 LTC.
    const merchant = await fundedMerchant(installation, [["LTC", "4.004"]], receiver.url);

    const withdrawals = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        signed(i % 2 ? a.base : b.base, merchant, "/withdrawal/crypto", withdrawalBody(`race-${i}`)),
      ),
    );
    expect(withdrawals.filter((r) => r.status === 201)).toHaveLength(40);
    expect(withdrawals.filter((r) => r.status === 400).every((r) => /Insufficient funds/.test(r.text))).toBe(
      true,
    );

    const duplicates = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        signed(i % 2 ? a.base : b.base, merchant, "/invoices/create", invoiceBody("same-order")),
      ),
    );
    expect(duplicates.filter((r) => r.status === 201)).toHaveLength(1);
    expect(
      duplicates
        .filter((r) => r.status === 400)
        .every((r) => r.text.includes("The foreign id has already been taken.")),
    ).toBe(true);

    const accounts = (await signed(b.base, merchant, "/accounts/list", "{}")).json.data as unknown as {
      currency: string;
      balance: string;
    }[];
    expect(accounts.find((x) => x.currency === "LTC")!.balance).toBe("0.00000000");

    // The workers broadcast every withdrawal; mined blocks confirm them; every callback goes out once.
    const database = await installation.open();
    try {
      await expect
        .poll(
          async () =>
            (
              await queryRows<{ n: number }>(
                database.db,
                sql`select count(*)::int as n from withdrawals where txid is null`,
              )
            )[0]!.n,
          { timeout: 60_000 },
        )
        .toBe(0);
      await signed(a.base, merchant, "/sandbox/blocks", JSON.stringify({ currency: "LTC", count: 6 }));
      await expect
        .poll(
          async () =>
            (
              await queryRows<{ n: number }>(
                database.db,
                sql`select count(*)::int as n from transactions where type = 'withdrawal' and status = 'confirmed'`,
              )
            )[0]!.n,
          { timeout: 60_000 },
        )
        .toBe(40);
      await expect
        .poll(
          async () =>
            (
              await queryRows<{ n: number }>(
                database.db,
                sql`select count(*)::int as n from callbacks where status <> 'delivered'`,
              )
            )[0]!.n,
          { timeout: 60_000 },
        )
        .toBe(0);
      const sent = await queryRows<{ id: string }>(database.db, sql`select id::text from callbacks`);
      expect(sent.length).toBeGreaterThanOrEqual(40);
      for (const { id } of sent) expect(receiver.deliveries.get(id), `callback ${id}`).toBe(1);
      expect(await ledgerInvariants(database.db)).toEqual({
        nonZeroCurrencies: [],
        accountsNotMatchingEntries: 0,
        negativeMerchantBalances: 0,
      });
    } finally {
      await database.close();
    }
  });
});
