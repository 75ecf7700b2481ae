import {
  cli,
  cliProcess,
  createMerchant,
  dashboardSession,
  expect,
  type SignedClient,
  sandboxCredit,
  signedClient,
  stepUp,
  test,
} from "../fixtures";

const BTC = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
let counter = 0;
function withdrawal(overrides: Record<string, unknown> = {}) {
  counter++;
  return {
    currency: "BTC",
    amount: "0.01",
    address: BTC,
    foreign_id: `w-${Date.now()}-${counter}`,
    end_user_reference: `payee-${counter}`,
    sender_type: "legal",
    sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
    receiver_type: "natural",
    receiver_data: { first_name: "Alan", last_name: "Turing", date_of_birth: "1912-06-23" },
    ...overrides,
  };
}

async function fund(client: SignedClient) {
  const merchant = String(client.merchant.merchantId);
  await sandboxCredit(merchant, "BTC", "1");
  await sandboxCredit(merchant, "EUR", "5000");
}

const info = async (client: SignedClient, body: Record<string, unknown>, method: "GET" | "POST" = "GET") =>
  client.send(method, "/transactions/info", JSON.stringify(body));

async function waitForStatus(client: SignedClient, id: number, status: string) {
  await expect
    .poll(async () => (await (await info(client, { id })).json()).status, { timeout: 15_000 })
    .toBe(status);
}

test.describe("POST /withdrawal/crypto (spec 2.4)", () => {
  test("sends BTC without conversion and reaches confirmed on the sandbox chain", async ({ client }) => {
    await fund(client);
    const response = await client.post("/withdrawal/crypto", withdrawal());
    expect(response.status()).toBe(201);
    const data = (await response.json()).data;
    expect(data).toMatchObject({
      type: "withdrawal",
      status: "processing",
      amount: "0.01000000",
      // As the public API reports it: the amount; the 0.00002 network fee is in `fees`.
      sender_amount: "0.01000000",
      sender_currency: "BTC",
      receiver_currency: "BTC",
      receiver_amount: "0.01000000",
    });
    await expect
      .poll(async () => (await (await info(client, { id: data.id })).json()).transactions[0].txid)
      .toBeTruthy();
    await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
    await waitForStatus(client, data.id, "confirmed");
  });

  test("converts EUR to BTC at the rate exchange/calculate quotes", async ({ client }) => {
    await fund(client);
    const quote = (
      await (
        await client.post("/exchange/calculate", {
          sender_currency: "EUR",
          receiver_currency: "BTC",
          sender_amount: "300",
        })
      ).json()
    ).data;
    const response = await client.post(
      "/withdrawal/crypto",
      withdrawal({ currency: "EUR", amount: "300", convert_to: "BTC" }),
    );
    expect(response.status()).toBe(201);
    const data = (await response.json()).data;
    expect(data).toMatchObject({
      type: "withdrawal_exchange",
      sender_currency: "EUR",
      receiver_currency: "BTC",
    });
    // The same rate and the same one rounding: what the address gets is what the quote said 300 EUR buys.
    expect(data.receiver_amount).toBe(quote.receiver_amount);
    expect(data.sender_amount).toBe("300.00000000");
    await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
    await expect
      .poll(async () => (await (await info(client, { id: data.id })).json()).transactions.length)
      .toBe(2);
  });

  test("returns the funds of a withdrawal the network refuses", async ({ client }) => {
    await fund(client);
    const response = await client.post(
      "/withdrawal/crypto",
      withdrawal({ address: "1BitcoinEaterAddressDontSendf59kuE" }),
    );
    const { id } = (await response.json()).data;
    await waitForStatus(client, id, "cancelled");
    const described = await (await info(client, { id })).json();
    expect(described.error).toMatch(/refused/);
    const accounts = await (await client.post("/accounts/list")).json();
    expect(accounts.data.find((a: { currency: string }) => a.currency === "BTC").balance).toBe("1.00000000");
  });

  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    [
      "both amount and amount_to",
      { amount: "0.01", amount_to: "0.01", convert_to: "LTC" },
      "amount_to",
      /Only one/,
    ],
    ["neither amount nor amount_to", { amount: undefined }, "amount", /required/],
    ["amount_to without convert_to", { amount: undefined, amount_to: "0.01" }, "amount_to", /convert_to/],
    [
      "a broken address checksum",
      { address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv" },
      "address",
      /not a valid Bitcoin address/,
    ],
    [
      "a Litecoin address for BTC",
      { address: "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh" },
      "address",
      /Bitcoin/,
    ],
    ["a tag where the network has none", { tag: "77" }, "tag", /does not use a tag/],
    [
      "XRP without its destination tag",
      { currency: "XRP", amount: "30", address: "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3" },
      "tag",
      /required/,
    ],
    ["receiver data for self", { receiver_type: "self" }, "receiver_data", /prohibited/],
    ["receiver data missing", { receiver_data: undefined }, "receiver_data", /required/],
    [
      "a legal receiver without a country",
      { receiver_type: "legal", receiver_data: { legal_name: "X" } },
      "receiver_data.country_of_registration",
      /required/,
    ],
    ["an amount below the minimum", { amount: "0.00001" }, "amount", /at least/],
    ["a fiat currency without convert_to", { currency: "EUR", amount: "100" }, "currency", /convert_to/],
    ["more than the balance", { amount: "50" }, "amount", /Insufficient funds/],
    ["a missing foreign_id", { foreign_id: undefined }, "foreign_id", /required/],
  ];
  for (const [name, overrides, field, message] of cases) {
    test(`refuses ${name}`, async ({ client }) => {
      await fund(client);
      const payload: Record<string, unknown> = withdrawal(overrides);
      for (const [key, value] of Object.entries(overrides)) if (value === undefined) delete payload[key];
      const response = await client.post("/withdrawal/crypto", payload);
      expect(response.status()).toBe(400);
      const { errors } = await response.json();
      expect(errors[field], JSON.stringify(errors)).toMatch(message);
    });
  }

  test("accepts self as receiver without receiver_data, and any JSON foreign_id", async ({ client }) => {
    await fund(client);
    const payload = withdrawal({ receiver_type: "self", foreign_id: 918273 });
    delete (payload as Record<string, unknown>).receiver_data;
    const response = await client.post("/withdrawal/crypto", payload);
    expect(response.status()).toBe(201);
    expect((await response.json()).data.foreign_id).toBe(918273);
  });
});

test.describe("POST /crypto/withdrawal_instant (spec 2.5)", () => {
  test("sends at once and answers the documented shape", async ({ client }) => {
    await fund(client);
    const response = await client.post("/crypto/withdrawal_instant", {
      sender_currency: "BTC",
      sender_amount: 0.002,
      address: BTC,
      foreign_id: `instant-${Date.now()}`,
      end_user_reference: "payee-i",
      sender_type: "legal",
      sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
      receiver_type: "self",
    });
    expect(response.status()).toBe(201);
    const data = (await response.json()).data;
    expect(Object.keys(data).sort()).toEqual(
      ["id", "foreign_id", "end_user_reference", "type", "status", "sender_currency", "sender_amount"].sort(),
    );
    expect(data).toMatchObject({
      type: "withdrawal_instant",
      status: "processing",
      sender_amount: "0.00200000",
    });
  });

  test("refuses a fiat sender_currency and a missing address", async ({ client }) => {
    const response = await client.post("/crypto/withdrawal_instant", {
      sender_currency: "EUR",
      sender_amount: 10,
    });
    const { errors } = await response.json();
    expect(errors.sender_currency).toMatch(/crypto/);
    expect(errors.address).toMatch(/required/);
  });
});

test.describe("GET /transactions/info (spec 2.6)", () => {
  test("finds a transaction by id, foreign_id or txid, with a GET body or POST", async ({ client }) => {
    await fund(client);
    const payload = withdrawal();
    const { id } = (await (await client.post("/withdrawal/crypto", payload)).json()).data;
    const byId = await info(client, { id });
    expect(byId.status()).toBe(200);
    const described = await byId.json();
    expect(described).not.toHaveProperty("data");
    expect(described).toMatchObject({ id, type: "withdrawal", foreign_id: payload.foreign_id });
    expect((await (await info(client, { foreign_id: payload.foreign_id })).json()).id).toBe(id);
    expect((await (await info(client, { id }, "POST")).json()).id).toBe(id);
    await expect
      .poll(async () => (await (await info(client, { id })).json()).transactions[0].txid)
      .toBeTruthy();
    const { txid } = (await (await info(client, { id })).json()).transactions[0];
    expect((await (await info(client, { txid })).json()).id).toBe(id);
  });

  test("needs exactly one identifier", async ({ client }) => {
    const none = await info(client, {});
    expect(none.status()).toBe(400);
    expect((await none.json()).errors.id).toMatch(/One of id, foreign_id or txid/);
    const several = await info(client, { id: 1, txid: "abc" });
    expect(Object.keys((await several.json()).errors).sort()).toEqual(["id", "txid"]);
  });

  test("answers 404 for another merchant's transaction, exactly as for a missing one", async ({
    client,
    request,
  }) => {
    await fund(client);
    const { id } = (await (await client.post("/withdrawal/crypto", withdrawal())).json()).data;
    const other = signedClient(request, await createMerchant("Prying Shop"));
    const foreign = await info(other, { id });
    const missing = await info(other, { id: 2_000_000_000 });
    expect(foreign.status()).toBe(404);
    expect(await foreign.json()).toEqual(await missing.json());
  });
});

const balanceOf = async (client: SignedClient, currency: string) =>
  ((await (await client.post("/accounts/list")).json()).data as { currency: string; balance: string }[]).find(
    (a) => a.currency === currency,
  )!.balance;

test.describe("withdrawal limits and approvals (DESIGN section 6)", () => {
  test("cli merchants limits prints the limits it set, and refuses what is not a limit", async ({
    client,
  }) => {
    const merchant = String(client.merchant.merchantId);
    expect(
      await cliProcess(
        "merchants",
        "limits",
        "--merchant",
        merchant,
        "--currency",
        "btc",
        "--per-withdrawal",
        "0.05",
        "--per-day",
        "0.2",
      ),
    ).toEqual({
      merchant_id: client.merchant.merchantId,
      currency: "BTC",
      per_withdrawal: "0.05000000",
      per_day: "0.20000000",
    });
    expect(
      await cliProcess(
        "merchants",
        "limits",
        "--merchant",
        merchant,
        "--currency",
        "BTC",
        "--per-withdrawal",
        "1",
      ),
    ).toEqual({
      merchant_id: client.merchant.merchantId,
      currency: "BTC",
      per_withdrawal: "1.00000000",
      per_day: null,
    });
    const refused = await cliProcess(
      "merchants",
      "limits",
      "--merchant",
      merchant,
      "--currency",
      "BTC",
      "--per-withdrawal",
      "12 BTC",
    ).catch((error: { stdout: string }) => JSON.parse(error.stdout));
    expect(refused).toMatchObject({
      code: "validation_failed",
      errors: { per_withdrawal: expect.any(String) },
    });
  });

  test("over the limit: 201 pending with the funds reserved, a pending callback, then declined with the funds back and a declined callback", async ({
    client,
    receiver,
  }) => {
    const merchant = String(client.merchant.merchantId);
    await fund(client);
    await cli("merchants", "limits", "--merchant", merchant, "--currency", "BTC", "--per-withdrawal", "0.05");
    const before = await balanceOf(client, "BTC");
    const response = await client.post("/withdrawal/crypto", withdrawal({ amount: "0.06" }));
    expect(response.status()).toBe(201);
    const data = (await response.json()).data;
    expect(data).toMatchObject({
      type: "withdrawal",
      status: "pending",
      amount: "0.06000000",
      sender_amount: "0.06000000",
    });
    // Reserved: 0.06 plus the 0.00002 network fee left the balance.
    expect(before).toBe("1.00000000");
    expect(await balanceOf(client, "BTC")).toBe("0.93998000");
    expect((await (await info(client, { id: data.id })).json()).status).toBe("pending");
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    expect(JSON.parse(receiver.received[0]!.body.toString())).toMatchObject({
      id: data.id,
      type: "withdrawal",
      status: "pending",
      crypto_address: { address: BTC },
    });
    // The instant endpoint is held by the same limits.
    const instant = await client.post("/crypto/withdrawal_instant", {
      ...withdrawal(),
      sender_currency: "BTC",
      sender_amount: "0.07",
      currency: undefined,
      amount: undefined,
    });
    expect(instant.status()).toBe(201);
    expect((await instant.json()).data).toMatchObject({ type: "withdrawal_instant", status: "pending" });

    const dashboard = await dashboardSession(client.merchant);
    const queue = (await (await dashboard.get("/api/dashboard/withdrawals/pending")).json()).data;
    expect(queue.map((w: { id: number }) => w.id)).toContain(data.id);
    const unconfirmed = await dashboard.post(`/api/dashboard/withdrawals/${data.id}/decline`, { data: {} });
    expect(unconfirmed.status()).toBe(403);
    expect((await unconfirmed.json()).code).toBe("confirmation_required");
    await stepUp(dashboard, { password: client.merchant.password });
    const declined = await dashboard.post(`/api/dashboard/withdrawals/${data.id}/decline`, { data: {} });
    expect(declined.status()).toBe(200);
    expect(await declined.json()).toEqual({ id: data.id, status: "declined" });
    const again = await dashboard.post(`/api/dashboard/withdrawals/${data.id}/approve`, { data: {} });
    expect(again.status()).toBe(400);
    await dashboard.dispose();

    const described = await (await info(client, { id: data.id })).json();
    expect(described).toMatchObject({ status: "declined", error: "Declined by an approver.", fees: [] });
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(3);
    const statuses = receiver.received.map(
      (r) => JSON.parse(r.body.toString()) as { id: number; status: string },
    );
    expect(statuses.filter((s) => s.id === data.id).map((s) => s.status)).toEqual(["pending", "declined"]);
    // Only the instant withdrawal's 0.07 (plus its fee) is still reserved.
    expect(await balanceOf(client, "BTC")).toBe("0.92998000");
  });
});
