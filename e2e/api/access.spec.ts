import {
  createMerchant,
  dashboardSession,
  expect,
  projectBaseURL,
  sandboxCredit,
  setCallbackUrl,
  signedClient,
  stepUp,
  test,
} from "../fixtures";

test("no merchant reaches another merchant's objects through any face", async ({ request }) => {
  const owner = await createMerchant("Owner");
  const attacker = await createMerchant("Attacker");
  const ownerApi = signedClient(request, owner);
  const attackerApi = signedClient(request, attacker);
  await setCallbackUrl(owner, "http://127.0.0.1:9/unreachable");
  await sandboxCredit(owner.merchantId, "BTC", "1");

  const invoice = (
    await (
      await ownerApi.post("/invoices/create", {
        end_user_reference: "c",
        timer: false,
        title: "Private",
        foreign_id: `owned-${Date.now()}`,
        currency: "BTC",
        amount: "0.01",
        url_success: "https://shop.example/ok",
        url_failed: "https://shop.example/failed",
        email_user: "buyer@example.com",
        sender_type: "natural",
        sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
        sender_currency: "BTC",
      })
    ).json()
  ).data;
  await request.get(`/api/checkout/${invoice.url.split("/pay/")[1]}`); // assigns the address: a callback is queued
  const withdrawal = (
    await (
      await ownerApi.post("/withdrawal/crypto", {
        currency: "BTC",
        amount: "0.01",
        address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
        foreign_id: `owned-w-${Date.now()}`,
        end_user_reference: "p",
        sender_type: "legal",
        sender_data: { legal_name: "Owner GmbH", country_of_registration: "DEU" },
        receiver_type: "self",
      })
    ).json()
  ).data;
  await expect
    .poll(
      async () =>
        (
          await (
            await ownerApi.send("POST", "/transactions/info", JSON.stringify({ id: withdrawal.id }))
          ).json()
        ).transactions.at(-1).txid,
    )
    .toBeTruthy();
  const { txid } = (
    await (await ownerApi.send("POST", "/transactions/info", JSON.stringify({ id: withdrawal.id }))).json()
  ).transactions.at(-1);

  // The merchant API with the attacker's key.
  for (const body of [
    { id: invoice.id },
    { foreign_id: invoice.foreign_id },
    { id: withdrawal.id },
    { foreign_id: withdrawal.foreign_id },
    { txid },
  ]) {
    const response = await attackerApi.send("POST", "/transactions/info", JSON.stringify(body));
    expect(response.status(), JSON.stringify(body)).toBe(404);
  }
  expect((await attackerApi.post(`/invoices/${invoice.foreign_id}/cancel`)).status()).toBe(404);
  expect((await attackerApi.post("/callbacks/resend", { id: invoice.id })).status()).toBe(404);

  // The dashboard with the attacker's session.
  const ownerDashboard = await dashboardSession(owner);
  const ownerKeys = (await (await ownerDashboard.get("/api/dashboard/api-keys")).json()).keys;
  const ownerDetail = await (await ownerDashboard.get(`/api/dashboard/transactions/${invoice.id}`)).json();
  const attackerDashboard = await dashboardSession(attacker);
  // Confirmed as the attacker's own user: the window opens the attacker's changes, never another merchant's objects.
  await stepUp(attackerDashboard, { password: attacker.password });
  expect((await attackerDashboard.get(`/api/dashboard/transactions/${invoice.id}`)).status()).toBe(404);
  expect((await attackerDashboard.get(`/api/dashboard/transactions/${withdrawal.id}`)).status()).toBe(404);
  expect(
    (
      await attackerDashboard.post(`/api/dashboard/api-keys/${ownerKeys[0].id}/revoke`, { data: {} })
    ).status(),
  ).toBe(404);
  expect(
    (
      await attackerDashboard.post(`/api/dashboard/callbacks/${ownerDetail.callbacks[0].id}/resend`, {
        data: {},
      })
    ).status(),
  ).toBe(404);
  for (const q of [invoice.foreign_id, String(invoice.id), txid]) {
    const page = await (
      await attackerDashboard.get(`/api/dashboard/transactions?q=${encodeURIComponent(q)}`)
    ).json();
    expect(page.rows, q).toEqual([]);
  }
  // The owner's key still works: the attempts changed nothing.
  expect((await ownerApi.post("/accounts/list")).status()).toBe(200);

  // The checkout: tokens are not guessable from ids.
  for (const token of [String(invoice.id), invoice.foreign_id, "AAAAAAAAAAAAAAAAAAAAAAAA"]) {
    expect((await request.get(`/api/checkout/${encodeURIComponent(token)}`)).status()).toBe(404);
  }
  await ownerDashboard.dispose();
  await attackerDashboard.dispose();
});

test("every dashboard mutation needs a session and our own origin", async ({ request }) => {
  const merchant = await createMerchant("Guarded");
  const session = await dashboardSession(merchant);
  const mutations: [string, string][] = [
    ["POST", "/api/dashboard/api-keys"],
    ["POST", "/api/dashboard/api-keys/1/revoke"],
    ["POST", "/api/dashboard/invoices"],
    ["POST", "/api/dashboard/withdrawals"],
    ["POST", "/api/dashboard/withdrawals/instant"],
    ["POST", "/api/dashboard/quote"],
    ["PUT", "/api/dashboard/callback-url"],
    ["POST", "/api/dashboard/callbacks/1/resend"],
    ["POST", "/api/dashboard/password"],
    ["POST", "/api/dashboard/totp/setup"],
    ["POST", "/api/dashboard/totp/enable"],
    ["POST", "/api/dashboard/totp/disable"],
    ["POST", "/api/dashboard/onboarding"],
    ["POST", "/api/dashboard/sandbox/payments"],
    ["POST", "/api/dashboard/sandbox/blocks"],
    ["POST", "/api/dashboard/sandbox/credit"],
    ["POST", "/api/dashboard/sandbox/rates"],
  ];
  for (const [method, path] of mutations) {
    const anonymous = await request.fetch(path, { method, data: {}, headers: { origin: projectBaseURL() } });
    expect(anonymous.status(), `${method} ${path} signed out`).toBe(401);
    const forged = await session.fetch(path, {
      method,
      data: {},
      headers: { origin: "https://attacker.example" },
    });
    expect(forged.status(), `${method} ${path} from another origin`).toBe(403);
  }
  await session.dispose();
});
