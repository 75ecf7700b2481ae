import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { ledgerInvariants } from "../support/ledger";
import { waitUntil } from "../support/wait";
import {
  createInstallation,
  driver,
  fundedMerchant,
  type Installation,
  invoiceBody,
  type KassaProcess,
  kill,
  signed,
  signIn,
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
  // The test gets its own installation, and whatever server is running when it ends is stopped
  // (killed), so a failure leaves no process or data behind.
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
    const acknowledgedCount = () => acknowledged.invoices.size + acknowledged.withdrawals.size;
    let counter = 0;
    for (let round = 0; round < 3; round++) {
      // The kill lands after a random number of acknowledged writes of both kinds, with more in flight.
      const target = {
        invoices: acknowledged.invoices.size + 2 + Math.floor(Math.random() * 6),
        withdrawals: acknowledged.withdrawals.size + 1,
      };
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
      await waitUntil(
        () =>
          acknowledged.invoices.size >= target.invoices &&
          acknowledged.withdrawals.size >= target.withdrawals,
        {
          what: `${target.invoices} invoices and ${target.withdrawals} withdrawals are acknowledged (round ${round})`,
          timeoutMs: 60_000,
        },
      );
      step(`round ${round}: SIGKILL after ${acknowledgedCount()} acknowledged`);
      await kill(server, "SIGKILL");
      const killedAt = Date.now();
      isRunning = false;
      await Promise.all(workers);
      // Every invoice was created before the kill, so its timer ends before this deadline: the
      // server's own clock has to pass it while the server is down (a real process, no test clock).
      await waitUntil(() => Date.now() >= killedAt + TIMER_SECONDS * 1000, {
        what: "the invoice timers ran out while the server was down",
        timeoutMs: TIMER_SECONDS * 1000 + 5_000,
        intervalMs: 100,
      });
      server = await start();
      step(`round ${round}: restarted`);
    }
    expect(acknowledged.invoices.size).toBeGreaterThan(5);
    expect(acknowledged.withdrawals.size).toBeGreaterThan(2);

    // Let the restarted server finish: broadcasts, confirmations, expiries, then callbacks. Every
    // transaction of the merchant (acknowledged or not) has to reach a final status; their
    // callbacks are written with those status changes, so after that the set of callbacks is
    // complete and only their delivery remains.
    const session = await signIn(server.base, merchant);
    const dashboard = async (path: string) => {
      const response = await fetch(`${server.base}${path}`, {
        headers: { cookie: session },
        signal: AbortSignal.timeout(20_000),
      });
      expect(response.status, path).toBe(200);
      return response.json();
    };
    await waitUntil(
      async () => {
        // Broadcasts retried after a restart reach the mempool later: keep mining, as the network would.
        await signed(server.base, merchant, "/sandbox/blocks", JSON.stringify({ currency: "LTC", count: 6 }));
        const open = await dashboard("/api/dashboard/transactions?status=created,pending,processing,sending");
        return open.rows.length === 0;
      },
      { what: "every transaction reached a final status", timeoutMs: 60_000, intervalMs: 500 },
    );
    const statusOf = async (id: number) =>
      (await signed(server.base, merchant, "/transactions/info", JSON.stringify({ id }))).json;
    for (const id of acknowledged.withdrawals) {
      expect(await statusOf(id), `withdrawal ${id}`).toMatchObject({ status: "confirmed" });
    }
    for (const id of acknowledged.invoices) {
      const invoice = await statusOf(id);
      expect(invoice, `invoice ${id}`).toMatchObject({
        status: "declined",
        error: "Timer expired. User not paid.",
        additional_details: { status_reason: "expired" },
      });
    }
    step("withdrawals confirmed, invoices expired; waiting for callbacks to be delivered");
    const undelivered = async () => {
      const statuses: string[] = [];
      let before: number | null = null;
      do {
        const page: { callbacks: { status: string }[]; nextBefore: number | null } = await dashboard(
          `/api/dashboard/callbacks${before ? `?before=${before}` : ""}`,
        );
        statuses.push(...page.callbacks.map((callback) => callback.status));
        before = page.nextBefore;
      } while (before);
      return statuses.filter((status) => status !== "delivered").length;
    };
    await waitUntil(async () => (await undelivered()) === 0, {
      what: "every callback was delivered",
      timeoutMs: 90_000,
      intervalMs: 500,
    });
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
