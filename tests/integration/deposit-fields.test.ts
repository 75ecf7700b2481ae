import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { getCurrency } from "@/lib/currencies/registry";
import { queryRows } from "@/lib/db/client";
import { callbacks, transactions } from "@/lib/db/schema";
import { listBalances } from "@/lib/ledger/list-balances";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { setBelowMinimumCallback } from "@/lib/merchants/set-below-minimum-callback";
import { divide, formatAmount, parseDecimal } from "@/lib/money";
import { transactionInfoResponse } from "@/lib/schemas/transactions";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { listTransactions } from "@/lib/transactions/list-transactions";
import { parseFilter } from "@/lib/transactions/parse-filter";
import { statusLabel } from "@/lib/transactions/status-label";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, pay, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";

const sender = {
  sender_type: "natural",
  sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
} as const;

describe(`deposit fields and deposits below the minimum on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  const info = async (id: number) => {
    const described = await describeTransaction(database.db, id);
    expect(transactionInfoResponse.safeParse(described).success).toBe(true);
    return described;
  };
  const latestDeposit = async () =>
    (
      await database.db
        .select()
        .from(transactions)
        .where(and(eq(transactions.merchantId, merchantId), eq(transactions.type, "deposit")))
        .orderBy(asc(transactions.id))
    ).at(-1)!;
  const callbacksOf = (transactionId: number) =>
    database.db
      .select()
      .from(callbacks)
      .where(eq(callbacks.transactionId, transactionId))
      .orderBy(asc(callbacks.id));
  const balance = async (currency: string) =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === currency)?.balance ?? 0n;
  const held = async (currency: string) => {
    const [row] = await queryRows<{ balance: string }>(
      database.db,
      sql`select balance::text as balance from ledger_accounts
          where merchant_id is null and kind = 'platform:below_minimum' and currency = ${currency}`,
    );
    return row ? parseDecimal(row.balance) : 0n;
  };
  const sendTo = (address: { address: string; tag: string }, currency: string, amount: string) =>
    pay(database.db, { address: { address: address.address, tag: address.tag, currency } }, amount);

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = (
      await createMerchant(database.db, database.box, {
        name: "Deposits",
        email: "deposits@example.com",
        password: "long password 1",
      })
    ).merchantId;
    await setCallbackUrl(database.db, { merchantId, url: "http://127.0.0.1:9/hook", mode: "sandbox" });
  });
  afterAll(() => database.drop());

  it("keeps the end_user_reference an address was taken for, and reports it on its deposits", async () => {
    const customer = { endUserReference: "user-77", ...sender };
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "wallet-77",
      currency: "LTC",
      customer,
    });
    expect(address.endUserReference).toBe("user-77");
    // Asked again without a reference: the same address, still with its reference.
    const again = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "wallet-77",
      currency: "LTC",
    });
    expect(again).toEqual(address);
    await expect(
      takeAddress(database.db, testKeys, {
        merchantId,
        foreignId: "wallet-77",
        currency: "LTC",
        customer: { ...customer, endUserReference: "user-78" },
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      fields: { end_user_reference: expect.any(String) },
    });

    // Taken first without one, the reference is recorded by the first request that names it.
    const bare = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "wallet-79",
      currency: "LTC",
    });
    expect(bare.endUserReference).toBeNull();
    const named = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "wallet-79",
      currency: "LTC",
      customer: { ...customer, endUserReference: "user-79" },
    });
    expect({ id: named.id, reference: named.endUserReference }).toEqual({
      id: bare.id,
      reference: "user-79",
    });

    await sendTo(address, "LTC", "0.5");
    const deposit = await latestDeposit();
    expect(await info(deposit.id)).toMatchObject({ end_user_reference: "user-77", status: "not_confirmed" });
    const [seenCallback] = await callbacksOf(deposit.id);
    expect(JSON.parse(seenCallback!.body)).toMatchObject({
      end_user_reference: "user-77",
      status: "not_confirmed",
    });
    await confirm(database.db, "LTC");
    const confirmedBody = JSON.parse((await callbacksOf(deposit.id)).at(-1)!.body);
    expect(confirmedBody).toMatchObject({
      end_user_reference: "user-77",
      status: "confirmed",
      type: "deposit",
    });
  });

  it("sends currency_received on the not_confirmed callback of a converting deposit", async () => {
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "wallet-80",
      currency: "BTC",
      convertTo: "EUR",
    });
    await sendTo(address, "BTC", "0.01");
    const deposit = await latestDeposit();
    const [callback] = await callbacksOf(deposit.id);
    expect(callback!.event).toBe("deposit.processing");
    const body = JSON.parse(callback!.body);
    // Independently: 0.01 BTC × 65000 USD × (1 − 0.5 %) ÷ 1.08 USD per EUR, rounded down to EUR's
    // precision (whatever the registry says it is), and the 0.5 % deposit fee rounded up to it.
    const step = 10n ** BigInt(8 - getCurrency("EUR").precision);
    const gross =
      divide(
        parseDecimal("0.01") * parseDecimal("65000") * 995_000n,
        parseDecimal("1.08") * 1_000_000n * step,
        "down",
      ) * step;
    const fee = divide(gross * 5_000n, 1_000_000n * step, "up") * step;
    expect(body).toMatchObject({
      type: "deposit_exchange",
      status: "not_confirmed",
      currency_sent: { currency: "BTC", amount: "0.01000000" },
      currency_received: {
        currency: "EUR",
        amount: formatAmount(gross),
        amount_minus_fee: formatAmount(gross - fee),
      },
    });
    await confirm(database.db, "BTC");
  });

  it("holds a deposit below the currency's minimum: not credited, booked to a suspense account, shown as such", async () => {
    const minimum = getCurrency("BTC").minimumAmount;
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "wallet-81",
      currency: "BTC",
      customer: { endUserReference: "user-81", ...sender },
    });
    const before = await balance("BTC");
    const heldBefore = await held("BTC");
    const small = minimum - 1n; // one unit below: 0.00009999 BTC
    await sendTo(address, "BTC", formatAmount(small));
    const deposit = await latestDeposit();
    expect(deposit.status).toBe("below_minimum");
    // Off by default: no callback at all (not even not_confirmed for a deposit that will never confirm).
    expect(await callbacksOf(deposit.id)).toHaveLength(0);
    const expected = {
      id: deposit.id,
      end_user_reference: "user-81",
      type: "deposit",
      status: "cancelled",
      error: "Transaction amount less than minimum deposit.",
      currency_sent: { currency: "BTC", amount: "0.00009999" },
      fees: [],
      additional_details: { status: "below_minimum", minimum_amount: "0.00010000" },
    };
    expect(await info(deposit.id)).toMatchObject(expected);
    expect(await info(deposit.id)).not.toHaveProperty("currency_received");
    // The dashboard's explorer filters them by their own status and labels them.
    const { rows } = await listTransactions(database.db, {
      merchantId,
      filter: parseFilter(new URLSearchParams("status=below_minimum")).filter,
    });
    expect(rows.map((row) => [row.id, statusLabel(row.status)])).toEqual([
      [deposit.id, "below minimum (held, not credited)"],
    ]);

    await confirm(database.db, "BTC");
    expect(await balance("BTC")).toBe(before);
    expect(await held("BTC")).toBe(heldBefore + small);
    expect((await latestDeposit()).status).toBe("below_minimum");
    expect(await info(deposit.id)).toMatchObject(expected);
    // Exactly the minimum is an ordinary deposit.
    await sendTo(address, "BTC", formatAmount(minimum));
    expect((await latestDeposit()).status).toBe("processing");
    await confirm(database.db, "BTC");
    expect(await balance("BTC")).toBe(before + minimum - (minimum * 5_000n + 999_999n) / 1_000_000n);
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  it("sends the below-minimum callback, cancelled with the public error, when the merchant turned it on", async () => {
    await setBelowMinimumCallback(database.db, { merchantId, isOn: true });
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "wallet-82",
      currency: "LTC",
    });
    await sendTo(address, "LTC", "0.001"); // LTC's minimum deposit is 0.01
    const deposit = await latestDeposit();
    const sent = await callbacksOf(deposit.id);
    expect(sent.map((c) => c.event)).toEqual(["deposit.below_minimum"]);
    expect(JSON.parse(sent[0]!.body)).toMatchObject({
      type: "deposit",
      status: "cancelled",
      error: "Transaction amount less than minimum deposit.",
      crypto_address: { address: address.address, currency: "LTC", foreign_id: "wallet-82" },
      currency_sent: { currency: "LTC", amount: "0.00100000" },
    });
    await confirm(database.db, "LTC");
    // Confirming the held deposit sends nothing more and credits nothing.
    expect(await callbacksOf(deposit.id)).toHaveLength(1);
    await setBelowMinimumCallback(database.db, { merchantId, isOn: false });
  });
});
