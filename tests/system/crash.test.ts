import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { ledgerInvariants } from "../support/ledger";
import {
  createInstallation,
  driver,
  fundedMerchant,
  type Installation,
  invoiceBody,
  type KassaProcess,
  kill,
  signed,
  startCallbackReceiver,
  startKassa,
  step,
  withdrawalBody,
} from "./harness";

const TIMER_SECONDS = 3;
const serverEnv = {
  KASSA_INVOICE_TIMER_SECONDS: String(TIMER_SECONDS),
  KASSA_CALLBACK_SCHEDULE: Array.from({ length: 12 }, () => "1").join(","),
  KASSA_JOB_LEASE_SECONDS: "2",
};

describe(`crash safety on ${driver}: SIGKILL in the middle of the work`, () => {
  let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;
  // Each attempt (the suite allows one retry) gets its own installation, and whatever server is
  // running when an attempt ends is stopped, so a retry never inherits a half-finished run.
  let installation: Installation | undefined;
  let current: KassaProcess | undefined;
  const start = async () => {
    current = await startKassa(installation!, { env: serverEnv });
    return current;
  };

  beforeAll(async () => {
    receiver = await startCallbackReceiver();
  });
  afterEach(async (context) => {
    if (context.task.result?.state === "fail" && current) {
      console.log(`server log (last lines):\n${current.log.slice(-40).join("")}`);
    }
    if (current) await kill(current, "SIGKILL");
    current = undefined;
    await installation?.cleanup();
    installation = undefined;
  });
  afterAll(() => receiver.close());

  it("keeps every acknowledged write, expires what ran out while down, and delivers every callback", async () => {
    installation = await createInstallation();
    let server = await start();
    const merchant = await fundedMerchant(installation, [["LTC", "1000"]], receiver.url);

    const acknowledged = { invoices: new Set<number>(), withdrawals: new Set<number>() };
    let counter = 0;
    for (let round = 0; round < 3; round++) {
      let isRunning = true;
      const worker = async () => {
        while (isRunning) {
          counter++;
          const id = `crash-${round}-${counter}`;
          const isWithdrawal = counter % 3 === 0; // decided now: other workers move the counter meanwhile
          try {
            const response = isWithdrawal
              ? await signed(server.base, merchant, "/withdrawal/crypto", withdrawalBody(id))
              : await signed(server.base, merchant, "/invoices/create", invoiceBody(id));
            if (response.status === 201) {
              (isWithdrawal ? acknowledged.withdrawals : acknowledged.invoices).add(
                Number(response.json.data!.id),
              );
            }
          } catch {
            // the server died under this request: it was never acknowledged
          }
        }
      };
      const workers = Array.from({ length: 4 }, worker);
      await new Promise((resolve) => setTimeout(resolve, 400 + Math.random() * 1_200));
      step(
        `round ${round}: SIGKILL after ${acknowledged.invoices.size + acknowledged.withdrawals.size} acknowledged`,
      );
      await kill(server, "SIGKILL");
      isRunning = false;
      await Promise.all(workers);
      await new Promise((resolve) => setTimeout(resolve, (TIMER_SECONDS + 1) * 1000)); // timers run out while down
      server = await start();
      step(`round ${round}: restarted`);
    }
    expect(acknowledged.invoices.size).toBeGreaterThan(5);
    expect(acknowledged.withdrawals.size).toBeGreaterThan(2);

    // Let the restarted server finish: broadcasts, confirmations, expiries, callbacks.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const statusOf = async (id: number) =>
      (await signed(server.base, merchant, "/transactions/info", JSON.stringify({ id }))).json;
    const withdrawalStatuses = async () => {
      // Broadcasts retried after a restart reach the mempool later: keep mining, as the network would.
      await signed(server.base, merchant, "/sandbox/blocks", JSON.stringify({ currency: "LTC", count: 6 }));
      return Promise.all(
        [...acknowledged.withdrawals].map(async (id) => `${id}:${(await statusOf(id)).status}`),
      );
    };
    await expect
      .poll(async () => (await withdrawalStatuses()).filter((s) => !s.endsWith(":confirmed")), {
        timeout: 60_000,
        interval: 1_000,
      })
      .toEqual([]);
    for (const id of acknowledged.invoices) {
      const invoice = await statusOf(id);
      expect(invoice, `invoice ${id}`).toMatchObject({ status: "declined", error: "expired" });
    }
    step("withdrawals confirmed, invoices expired; waiting for callbacks to drain");
    // Callbacks drain: wait until deliveries stop arriving (bounded).
    let seen = -1;
    for (let i = 0; i < 30 && seen !== receiver.deliveries.size; i++) {
      seen = receiver.deliveries.size;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
    await kill(server, "SIGTERM");

    const database = await installation.open();
    try {
      const duplicates = await queryRows<{ count: number }>(
        database.db,
        sql`select count(*)::int as count from (select foreign_id from transactions group by merchant_id, foreign_id having count(*) > 1) d`,
      );
      expect(duplicates[0]!.count).toBe(0);
      expect(await ledgerInvariants(database.db)).toEqual({
        nonZeroCurrencies: [],
        accountsNotMatchingEntries: 0,
        negativeMerchantBalances: 0,
      });
      const pending = await queryRows<{ status: string; count: number }>(
        database.db,
        sql`select status, count(*)::int as count from callbacks group by status`,
      );
      expect(pending.filter((row) => row.status !== "delivered")).toEqual([]);
      const delivered = await queryRows<{ id: string }>(database.db, sql`select id::text from callbacks`);
      expect(delivered.length).toBeGreaterThan(0);
      for (const { id } of delivered)
        expect(receiver.deliveries.get(id), `callback ${id}`).toBeGreaterThanOrEqual(1);
    } finally {
      await database.close();
    }
  });
});
