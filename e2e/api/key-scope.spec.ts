import { dashboardSession, expect, signedClient, stepUp, test } from "../fixtures";

/** docs/security.md, "Key scope": a key created without the money scope, on the production server. */
const NO_MONEY_SCOPE = {
  error:
    "This API key may not move money (withdrawals, exchanges). Create a key that may, as a member who may create payouts.",
  code: "bad_header_key",
};

test("a key without the money scope gets the public bad-key 403 on withdrawals and exchanges; one with it passes", async ({
  merchant,
  request,
}) => {
  const dashboard = await dashboardSession(merchant);
  // Key changes ask for the password once (two-factor sign-in is off here): the session's step-up window.
  await stepUp(dashboard, { password: merchant.password });
  const create = async (label: string, canMoveMoney?: boolean) => {
    const response = await dashboard.post("/api/dashboard/api-keys", {
      data: {
        label,
        ...(canMoveMoney === undefined ? {} : { can_move_money: canMoveMoney }),
      },
    });
    expect(response.status()).toBe(201);
    const created = await response.json();
    return {
      created,
      client: signedClient(request, { ...merchant, apiKey: created.api_key, apiSecret: created.api_secret }),
    };
  };
  const reads = await create("Invoices only");
  expect(reads.created.can_move_money).toBe(false);
  for (const path of [
    "/withdrawal/crypto",
    "/crypto/withdrawal_instant",
    "/exchange/now",
    "/exchange/fixed",
  ]) {
    const refused = await reads.client.post(path, {});
    expect([path, refused.status(), await refused.json()]).toEqual([path, 403, NO_MONEY_SCOPE]);
  }
  expect((await reads.client.post("/accounts/list")).status()).toBe(200);

  // The owner may create a key that moves money: past the scope check, the empty body is a 400 on its fields.
  const payouts = await create("Payouts", true);
  expect(payouts.created.can_move_money).toBe(true);
  const checked = await payouts.client.post("/withdrawal/crypto", {});
  expect(checked.status()).toBe(400);

  const { keys } = await (await dashboard.get("/api/dashboard/api-keys")).json();
  expect(
    keys
      .filter((k: { label: string }) => ["Invoices only", "Payouts"].includes(k.label))
      .map((k: { label: string; can_move_money: boolean; created_by: string }) => [
        k.label,
        k.can_move_money,
        k.created_by,
      ]),
  ).toEqual([
    ["Payouts", true, merchant.email],
    ["Invoices only", false, merchant.email],
  ]);
  await dashboard.dispose();
});
