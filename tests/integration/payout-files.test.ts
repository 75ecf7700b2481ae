import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withdrawals } from "@/lib/db/schema";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { parseDecimal } from "@/lib/money";
import { payoutBatchResultCsv } from "@/lib/payout-batches/payout-batch-result-csv";
import { checkPayoutFile, fileReference, sendPayoutFile } from "@/lib/payout-batches/payout-file";
import { readPayoutBatch } from "@/lib/payout-batches/read-payout-batch";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { handlers, pricing } from "../support/invoices";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const BTC = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const BTC_NETWORK_FEE = parseDecimal("0.00002");
const SENDER = {
  sender_type: "legal" as const,
  sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
};
const HEADER =
  "reference,currency,amount,address,receiver_type,receiver_first_name,receiver_last_name,receiver_date_of_birth";
const file = (lines: string[]) => new TextEncoder().encode(`${HEADER}\n${lines.join("\n")}\n`);

describe(`bulk payouts from a file on ${testDriver}`, () => {
  let database: TestDatabase;
  let seq = 0;

  async function shop(btc: string) {
    const merchantId = await createTestMerchant(database, `Files ${++seq}`);
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal(btc),
      isSandbox: true,
    });
    const balance = async () =>
      (await listBalances(database.db, merchantId)).find((b) => b.currency === "BTC")!.balance;
    return { merchantId, balance };
  }
  const input = (merchantId: number, bytes: Uint8Array) => ({
    merchantId,
    file: bytes,
    sender: SENDER,
    pricing,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("checks every line by its line and column, totals the valid ones, and sends them only when asked", async () => {
    const s = await shop("1");
    const bytes = file([
      `a-${seq}-1,BTC,0.01,${BTC},natural,Ada,Lovelace,1990-12-10`,
      `a-${seq}-2,BTC,0.02,not-an-address,natural,Ada,Lovelace,1990-12-10`,
      "",
      `a-${seq}-3,BTC,0.03,${BTC},natural,Grace,,1990-12-10`,
      `"=cmd|' /C calc'!A0",BTC,0.04,${BTC},self,,,`,
      `a-${seq}-5,BTC,0.05,${BTC},self,,,`,
    ]);
    const check = await checkPayoutFile(database.db, input(s.merchantId, bytes));
    expect(check.kind).toBe("checked");
    if (check.kind !== "checked") return;
    expect(check.errors.map((e) => [e.line, e.column])).toEqual([
      [3, "address"],
      [5, "receiver_last_name"],
      [6, "reference"],
    ]);
    expect({ payouts: check.payouts, valid: check.valid, approval: check.approval }).toEqual({
      payouts: 5,
      valid: 2,
      approval: null,
    });
    // Lines 2 and 7: 0.01 and 0.05, each with the BTC network fee.
    const debit = parseDecimal("0.06") + 2n * BTC_NETWORK_FEE;
    expect(check.totals).toEqual([
      {
        currency: "BTC",
        count: 2,
        amount: "0.06000000",
        fee: "0.00004000",
        total_debit: "0.06004000",
        balance: "1.00000000",
        balance_after: "0.93996000",
      },
    ]);
    expect(parseDecimal("1") - debit).toBe(parseDecimal(check.totals[0]!.balance_after));

    const all = input(s.merchantId, bytes);
    const refused = await fieldsOf(sendPayoutFile(database.db, { ...all, sendValidRows: false }));
    expect(refused.file).toMatch(
      /^Nothing was sent\. line 3, address: The address .* for BTC\.; line 5, receiver_last_name: /,
    );
    expect(await s.balance()).toBe(parseDecimal("1"));

    const sent = await sendPayoutFile(database.db, {
      ...all,
      sendValidRows: true,
    });
    expect(await s.balance()).toBe(parseDecimal("1") - debit);
    const view = await readPayoutBatch(database.db, { merchantId: s.merchantId, batchId: sent.batchId });
    expect(view.reference).toBe(fileReference(bytes));
    expect(view.payouts.map((p) => [p.row, p.foreign_id, p.amount])).toEqual([
      [2, `a-${seq}-1`, "0.01000000"],
      [7, `a-${seq}-5`, "0.05000000"],
    ]);

    // The same file again: recognised, and sent once.
    expect(await checkPayoutFile(database.db, all)).toMatchObject({
      kind: "already_sent",
      batch_id: sent.batchId,
    });
    const again = await sendPayoutFile(database.db, {
      ...all,
      sendValidRows: true,
    });
    expect(again).toMatchObject({ batchId: sent.batchId, isRepeat: true });
    expect(await s.balance()).toBe(parseDecimal("1") - debit);

    // The result file, once sent: each payout's line, reference, id, status and txid.
    await runDueJobs(database.db, handlers);
    const csv = payoutBatchResultCsv(
      await readPayoutBatch(database.db, { merchantId: s.merchantId, batchId: sent.batchId }),
    );
    const lines = parse(csv) as string[][];
    expect(lines[0]).toEqual([
      "line",
      "reference",
      "id",
      "status",
      "currency",
      "amount",
      "fee",
      "sent_currency",
      "sent_amount",
      "address",
      "tag",
      "txid",
      "error",
    ]);
    const ids = (
      await database.db
        .select({ id: withdrawals.transactionId })
        .from(withdrawals)
        .where(eq(withdrawals.batchId, sent.batchId))
    ).map((r) => String(r.id));
    expect(lines.slice(1).map((l) => [l[0], l[1], l[3], l[4], l[5]])).toEqual([
      ["2", `a-${seq}-1`, "sending", "BTC", "0.01000000"],
      ["7", `a-${seq}-5`, "sending", "BTC", "0.05000000"],
    ]);
    expect(
      lines
        .slice(1)
        .map((l) => l[2])
        .sort(),
    ).toEqual(ids.sort());
    expect(lines.slice(1).every((l) => /^[0-9a-f]{64}$/.test(l[11]!))).toBe(true);
  });

  it("says when the batch's total is over a limit, though each payout is within it", async () => {
    const s = await shop("1");
    await setWithdrawalLimits(database.db, {
      merchantId: s.merchantId,
      currency: "BTC",
      perWithdrawal: "0.05",
    });
    const check = await checkPayoutFile(
      database.db,
      input(s.merchantId, file([`b-${seq}-1,BTC,0.03,${BTC},self,,,`, `b-${seq}-2,BTC,0.03,${BTC},self,,,`])),
    );
    expect(check).toMatchObject({
      kind: "checked",
      approval:
        "Over your BTC limit of 0.05 BTC per withdrawal or exchange: this bulk payout moves 0.06 BTC.",
    });
  });

  it("answers a file that cannot be read with what is wrong, and sends nothing", async () => {
    const s = await shop("1");
    const check = await checkPayoutFile(
      database.db,
      input(s.merchantId, new TextEncoder().encode("name,amount\nx,1\n")),
    );
    expect(check).toEqual({
      kind: "file_error",
      message: expect.stringMatching(/^The first line must name the columns; "name" is not one of them/),
    });
  });
});
