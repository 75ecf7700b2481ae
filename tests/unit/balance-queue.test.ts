import { describe, expect, it } from "vitest";
import { BALANCE_WRITERS, balanceQueueCount, inBalanceQueue } from "@/lib/ledger/balance-queue";

/** A write the test finishes by hand: `started` until `finish` (or `fail`) is called. */
function manualWrite(log: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    work: () => {
      log.push(`start ${name}`);
      return done;
    },
    finish: () => finish(name),
    fail: (message: string) => fail(new Error(message)),
  };
}

/** Lets every settled promise's reactions run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the balance queue", () => {
  it(`lets ${BALANCE_WRITERS} writes of one balance in at once and the rest in arrival order`, async () => {
    const log: string[] = [];
    const writes = ["a", "b", "c", "d", "e"].map((name) => manualWrite(log, name));
    const results = writes.map((write) => inBalanceQueue(1, "BTC", write.work));
    await settle();
    expect(log).toEqual(["start a", "start b"]);

    writes[1]!.finish();
    await settle();
    expect(log).toEqual(["start a", "start b", "start c"]);
    writes[0]!.finish();
    await settle();
    expect(log).toEqual(["start a", "start b", "start c", "start d"]);
    writes[3]!.finish();
    writes[2]!.finish();
    await settle();
    expect(log.at(-1)).toBe("start e");
    writes[4]!.finish();
    expect(await Promise.all(results)).toEqual(["a", "b", "c", "d", "e"]);
    expect(balanceQueueCount()).toBe(0);
  });

  it("queues each balance on its own: another merchant or currency does not wait", async () => {
    const log: string[] = [];
    const held = ["a", "b"].map((name) => manualWrite(log, name));
    const pending = held.map((write) => inBalanceQueue(7, "BTC", write.work));
    const otherCurrency = manualWrite(log, "eth");
    const otherMerchant = manualWrite(log, "merchant 8");
    const other = [
      inBalanceQueue(7, "ETH", otherCurrency.work),
      inBalanceQueue(8, "BTC", otherMerchant.work),
    ];
    await settle();
    expect(log).toEqual(["start a", "start b", "start eth", "start merchant 8"]);
    expect(balanceQueueCount()).toBe(3);
    for (const write of [...held, otherCurrency, otherMerchant]) write.finish();
    await Promise.all([...pending, ...other]);
    expect(balanceQueueCount()).toBe(0);
  });

  it("passes a failed write's error on and gives its place to the next write", async () => {
    const log: string[] = [];
    const writes = ["a", "b", "c"].map((name) => manualWrite(log, name));
    const results = writes.map((write) => inBalanceQueue(2, "USDT", write.work));
    await settle();
    writes[0]!.fail("insufficient funds");
    await expect(results[0]).rejects.toThrow("insufficient funds");
    await settle();
    expect(log).toEqual(["start a", "start b", "start c"]);
    writes[1]!.finish();
    writes[2]!.finish();
    expect(await Promise.all(results.slice(1))).toEqual(["b", "c"]);
    expect(balanceQueueCount()).toBe(0);
  });

  it("runs a write that throws before it returns a promise, and frees its place", async () => {
    const throwing = inBalanceQueue(3, "BTC", () => {
      throw new Error("bad input");
    });
    await expect(throwing).rejects.toThrow("bad input");
    expect(balanceQueueCount()).toBe(0);
  });
});
