import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { startReceiver } from "../support/receiver";
import { waitUntil } from "../support/wait";
import {
  createInstallation,
  fundedMerchant,
  type Installation,
  invoiceBody,
  type KassaProcess,
  kill,
  signed,
  startKassa,
  step,
} from "./harness";

/** How long the merchant's callback endpoint takes to answer: long enough to be caught mid-delivery. */
const RECEIVER_DELAY_MS = 3_000;
const INVOICES = 12;

/**
 * The worker's side of a clean stop (docs/OPERATIONS.md, "Stopping"): on PostgreSQL the app servers run
 * with KASSA_JOBS=off and a worker delivers the callbacks. SIGTERM while deliveries are in flight: the
 * worker finishes each delivery it took and records it, then exits 0; a worker started after it delivers
 * the rest, and the merchant receives every callback exactly once.
 */
describe("a clean stop of the worker on PostgreSQL: SIGTERM mid-delivery", () => {
  let installation: Installation | undefined;
  const processes: KassaProcess[] = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver({ status: 200, body: "ok", delayMs: RECEIVER_DELAY_MS });
  });
  afterEach(async (context) => {
    for (const kassa of processes) {
      if (context.task.result?.state === "fail")
        console.log(`process log (last lines):\n${kassa.log.slice(-30).join("")}`);
      await kill(kassa, "SIGKILL");
    }
    processes.length = 0;
    await installation?.cleanup();
    installation = undefined;
  });
  afterAll(() => receiver.close());

  it("finishes and records every delivery it took, exits 0, and the next worker delivers the rest once", async () => {
    installation = await createInstallation();
    const worker = { env: { KASSA_SHUTDOWN_GRACE_SECONDS: "60", KASSA_CALLBACK_SCHEDULE: "1,1,1" } };
    const server = await startKassa(installation, { env: { KASSA_JOBS: "off" } });
    processes.push(server);
    const first = await startKassa(installation, { entry: "worker.ts", ...worker });
    processes.push(first);
    const merchant = await fundedMerchant(installation, [], receiver.url());

    step(`${INVOICES} invoices created and cancelled: each cancel queues a callback`);
    for (let i = 0; i < INVOICES; i++) {
      const foreignId = `worker-stop-${i}`;
      expect(
        (
          await signed(
            server.base,
            merchant,
            "/invoices/create",
            invoiceBody(foreignId, { timer: false, sender_currency: null }),
          )
        ).status,
      ).toBe(201);
      expect((await signed(server.base, merchant, `/invoices/${foreignId}/cancel`, "{}")).status).toBe(200);
    }
    await waitUntil(() => receiver.received.length >= 1, {
      what: "the worker is delivering a callback",
      timeoutMs: 30_000,
    });
    const takenBeforeStop = receiver.received.length;
    step(`SIGTERM to the worker with ${takenBeforeStop} deliveries begun`);
    const exited = new Promise<number | null>((resolve) => first.process.once("exit", resolve));
    first.process.kill("SIGTERM");
    expect(await exited).toBe(0);

    const callbackIds = async () => {
      const database = await installation!.open();
      try {
        return await queryRows<{ id: string; status: string }>(
          database.db,
          sql`select id::text, status from callbacks where merchant_id = ${merchant.merchantId}`,
        );
      } finally {
        await database.close();
      }
    };
    // Every delivery the stopped worker took was waited for and recorded, none left to be sent again.
    const afterStop = await callbackIds();
    const delivered = new Set(afterStop.filter((row) => row.status === "delivered").map((row) => row.id));
    const takenByFirst = receiver.received.map((request) => String(request.headers["x-kassa-callback-id"]));
    expect(takenByFirst.length).toBeGreaterThanOrEqual(takenBeforeStop);
    expect(takenByFirst.filter((id) => !delivered.has(id))).toEqual([]);
    expect(afterStop.length).toBeGreaterThanOrEqual(INVOICES);

    step(`a second worker delivers the ${afterStop.length - delivered.size} callbacks left`);
    processes.push(await startKassa(installation, { entry: "worker.ts", ...worker }));
    await waitUntil(async () => (await callbackIds()).every((row) => row.status === "delivered"), {
      what: "every callback is delivered",
      timeoutMs: 120_000,
      intervalMs: 500,
    });
    const received = receiver.received.map((request) => String(request.headers["x-kassa-callback-id"]));
    expect([...received].sort()).toEqual(afterStop.map((row) => row.id).sort());
  });
});
