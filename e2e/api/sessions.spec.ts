import { dashboardSession, expect, test } from "../fixtures";

test("a password change keeps the browser that made it signed in and ends the user's other sessions", async ({
  merchant,
}) => {
  const here = await dashboardSession(merchant);
  const elsewhere = await dashboardSession(merchant);
  try {
    for (const session of [here, elsewhere])
      expect((await session.get("/api/dashboard/balances")).status()).toBe(200);

    const changed = await here.post("/api/dashboard/password", {
      data: { current_password: merchant.password, new_password: `${merchant.password}-next` },
    });
    expect(changed.status()).toBe(200);
    expect(await changed.json()).toEqual({ changed: true });
    // The renewed session cookie rides on the answer itself.
    expect(changed.headersArray().some((h) => h.name.toLowerCase() === "set-cookie")).toBe(true);

    expect((await here.get("/api/dashboard/balances")).status()).toBe(200);
    expect((await elsewhere.get("/api/dashboard/balances")).status()).toBe(401);
  } finally {
    await here.dispose();
    await elsewhere.dispose();
  }
});
