import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { startReceiver } from "../support/receiver";
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
  startKassa,
  step,
} from "./harness";

/** How long the merchant's callback endpoint takes to answer: long enough to be caught mid-delivery. */
const RECEIVER_DELAY_MS = 3_000;
const CLIENTS = 20;

/**
 * What an orchestrator's SIGTERM must not cost (docs/OPERATIONS.md, "Stopping"): under load from keep-alive
 * clients, with a checkout page's event stream open and callbacks being delivered, the server stops
 * accepting, answers every request it had taken, lets every job it runs finish, and only then closes
 * the database. Clients see answers, then refused connections; no request the server read is cut.
 *
 * One thing HTTP/1.1 leaves open (RFC 9112 section 9.3.1): a client may send on a keep-alive connection
 * in the very instant the server closes it as idle, and see a reset. The server shrinks that window to
 * microseconds (server.ts, `drained`); where it still happens, the request never reached the server.
 * So the test allows no more resets than connections the server says it closed as idle, and requires
 * that each reset request left no trace: its invoice not stored, or its cancel not applied.
 */
describe(`a clean stop on ${driver}: SIGTERM under load`, () => {
  let installation: Installation | undefined;
  let current: KassaProcess | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver({ status: 200, body: "ok", delayMs: RECEIVER_DELAY_MS });
  });
  afterEach(async (context) => {
    if (context.task.result?.state === "fail" && current)
      console.log(`server log (last lines):\n${current.log.slice(-40).join("")}`);
    if (current) await kill(current, "SIGKILL");
    current = undefined;
    await installation?.cleanup();
    installation = undefined;
  });
  afterAll(() => receiver.close());

  it("answers every request in flight, finishes its callback deliveries, ends open streams, then exits", async () => {
    installation = await createInstallation();
    const server = await startKassa(installation, {
      env: { KASSA_SHUTDOWN_GRACE_SECONDS: "60", KASSA_CALLBACK_SCHEDULE: "1,1,1" },
    });
    current = server;
    const merchant = await fundedMerchant(installation, [], receiver.url());

    step("a checkout page's event stream is open");
    const first = await signed(server.base, merchant, "/invoices/create", invoiceBody("stop-stream"));
    expect(first.status).toBe(201);
    const token = String(first.json.data!.url).split("/pay/")[1];
    const stream = await fetch(`${server.base}/api/checkout/${token}/events`);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const streamEnded = (async () => {
      const reader = stream.body!.getReader();
      while (!(await reader.read()).done) {}
      return "ended";
    })().catch((error: Error) => `cut: ${error.message}`);

    // One round first, so that the load meets warm routes.
    expect((await signed(server.base, merchant, "/invoices/stop-stream/cancel", "{}")).status).toBe(200);
    step(`${CLIENTS} keep-alive clients create and cancel invoices in a loop`);
    const acknowledged = new Set<string>();
    const cancels = new Set<string>();
    const failures: string[] = [];
    /** Requests reset after SIGTERM, before any answer: each must have left no trace. */
    const resets: { kind: "create" | "cancel"; foreignId: string }[] = [];
    let isSigtermSent = false;
    let answeredAfterSigterm = 0;
    /** One request; false once the server refuses connections after SIGTERM (the client stops). */
    const send = async (
      what: { kind: "create" | "cancel"; foreignId: string },
      path: string,
      body: string,
      expected: number,
    ) => {
      try {
        // A generous deadline: 20 clients on 2 busy cores can wait long, and a wait is not a failure.
        const answer = await signed(server.base, merchant, path, body, "POST", 120_000);
        if (isSigtermSent) answeredAfterSigterm++;
        if (answer.status === expected) return true;
        failures.push(`${what.kind} ${what.foreignId}: ${answer.status} ${answer.text.slice(0, 200)}`);
        return false;
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        // The server no longer listens: the one way a request may go unanswered, before it was sent.
        if (code === "ECONNREFUSED" && isSigtermSent) return false;
        // Reset by the peer, or closed under a request being written (undici's "other side closed").
        if ((code === "ECONNRESET" || code === "UND_ERR_SOCKET") && isSigtermSent) resets.push(what);
        else failures.push(`${what.kind} ${what.foreignId}: ${code ?? (error as Error).message}`);
        return false;
      }
    };
    const client = async (n: number) => {
      for (let i = 0; ; i++) {
        const foreignId = `stop-${n}-${i}`;
        if (
          !(await send(
            { kind: "create", foreignId },
            "/invoices/create",
            invoiceBody(foreignId, { timer: false, sender_currency: null }),
            201,
          ))
        )
          return;
        acknowledged.add(foreignId);
        // A cancel queues the invoice's `cancelled` callback: deliveries go on while the load does.
        if (!(await send({ kind: "cancel", foreignId }, `/invoices/${foreignId}/cancel`, "{}", 200))) return;
        cancels.add(foreignId);
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));

    // Each cancel's callback goes to a receiver that answers after 3 s: deliveries are in flight.
    await waitUntil(
      () =>
        (acknowledged.size >= 100 && receiver.received.length >= 1) ||
        (failures.length > 0 && new Error(`failures: ${failures.slice(0, 3).join("; ")}`)),
      { what: "100 invoices created and a callback delivery under way", timeoutMs: 120_000 },
    );
    if (failures.length > 0) throw new Error(`before SIGTERM: ${failures.slice(0, 3).join("; ")}`);
    const receivedBeforeStop = receiver.received.length;
    step(`SIGTERM after ${acknowledged.size} invoices, ${receivedBeforeStop} callback deliveries begun`);
    const exited = new Promise<number | null>((resolve) => server.process.once("exit", resolve));
    server.process.kill("SIGTERM");
    isSigtermSent = true;

    expect(await exited).toBe(0);
    await Promise.all(clients);
    expect(await streamEnded).toBe("ended");
    expect(failures).toEqual([]);
    const log = server.log.join("");
    const idleClosed = Number(/\[server\] stopped \((\d+) idle connections closed\)/.exec(log)?.[1]);
    expect(idleClosed).toBeGreaterThanOrEqual(0);
    // A reset can only be a request sent on a connection the server closed as idle, none it was reading.
    expect(resets.length).toBeLessThanOrEqual(idleClosed);
    // Drained, not cut at the end of the grace period.
    expect(log).not.toContain("still open after");
    step(
      `stopped: ${acknowledged.size} invoices acknowledged, ${answeredAfterSigterm} answered after SIGTERM, ${idleClosed} idle connections closed, ${resets.length} requests reset`,
    );
    current = undefined;

    const database = await installation.open();
    try {
      const rows = await queryRows<{ foreign_id: string }>(
        database.db,
        sql`select foreign_id from transactions where merchant_id = ${merchant.merchantId}`,
      );
      const stored = new Set(rows.map((row) => row.foreign_id));
      expect([...acknowledged].filter((id) => !stored.has(id))).toEqual([]);
      const cancelledRows = await queryRows<{ foreign_id: string }>(
        database.db,
        sql`select foreign_id from transactions where merchant_id = ${merchant.merchantId} and status = 'cancelled'`,
      );
      const isCancelled = new Set(cancelledRows.map((row) => row.foreign_id));
      expect([...cancels].filter((id) => !isCancelled.has(id))).toEqual([]);
      // A reset request was never read: a create stored nothing, a cancel left its invoice open.
      expect(
        resets.filter(({ kind, foreignId }) =>
          kind === "create" ? stored.has(foreignId) : isCancelled.has(foreignId),
        ),
      ).toEqual([]);
      // Every delivery the receiver took was waited for: its answer is recorded, none cut off to be
      // sent again after the restart.
      const deliveredIds = new Set(
        (
          await queryRows<{ id: string }>(
            database.db,
            sql`select id::text from callbacks where status = 'delivered'`,
          )
        ).map((row) => row.id),
      );
      const taken = receiver.received.map((request) => String(request.headers["x-kassa-callback-id"]));
      expect(taken.length).toBeGreaterThanOrEqual(receivedBeforeStop);
      expect(taken.filter((id) => !deliveredIds.has(id))).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
