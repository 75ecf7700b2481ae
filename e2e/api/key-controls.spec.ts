import { dashboardSession, expect, signedClient, stepUp, test } from "../fixtures";

test("a key's IP allowlist: the public bad-key 403 from outside it, served from inside, recorded in the audit trail", async ({
  client,
  merchant,
}) => {
  const dashboard = await dashboardSession(merchant);
  // Key changes ask for the password once (two-factor sign-in is off here): the session's step-up window.
  await stepUp(dashboard, { password: merchant.password });
  const { keys } = await (await dashboard.get("/api/dashboard/api-keys")).json();
  const key = keys.find((k: { api_key: string }) => k.api_key === merchant.apiKey);
  const allow = async (ranges: string[]) => {
    const response = await dashboard.put(`/api/dashboard/api-keys/${key.id}/allowlist`, {
      data: { allowed_ips: ranges },
    });
    expect(response.status()).toBe(200);
  };

  // The test talks to the server on 127.0.0.1: outside 10.0.0.0/8.
  await allow(["10.0.0.0/8"]);
  const outside = await client.post("/accounts/list");
  expect(outside.status()).toBe(403);
  expect(await outside.json()).toEqual({ error: "Bad key header", code: "bad_header_key" });

  await allow(["127.0.0.1/32"]);
  const inside = await client.post("/accounts/list");
  expect(inside.status()).toBe(200);
  expect((await inside.json()).data).toHaveLength(12);

  // The key list shows the address it was last used from.
  await expect
    .poll(async () => {
      const listed = (await (await dashboard.get("/api/dashboard/api-keys")).json()).keys;
      return listed.find((k: { id: number }) => k.id === key.id).last_used_ip;
    })
    .toBe("127.0.0.1");

  const audit = await (await dashboard.get("/api/dashboard/audit?action=api_key_allowlist_changed")).json();
  expect(audit.entries.map((e: { detail: string; actor: string }) => [e.actor, e.detail])).toEqual([
    [merchant.email, `${merchant.apiKey}: 127.0.0.1/32`],
    [merchant.email, `${merchant.apiKey}: 10.0.0.0/8`],
  ]);
  const signIns = await (await dashboard.get("/api/dashboard/audit?action=sign_in")).json();
  expect(signIns.entries).toHaveLength(1);
  expect(signIns.entries[0].address).toBe("127.0.0.1");

  const csv = await dashboard.get("/api/dashboard/audit/export?action=api_key_allowlist_changed");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect((await csv.text()).split("\r\n")[0]).toBe('"id","time","actor","address","action","detail"');

  // A refused allowlist is a 400 naming the field, never a 5xx.
  const bad = await dashboard.put(`/api/dashboard/api-keys/${key.id}/allowlist`, {
    data: { allowed_ips: ["10.0.0.0/33"] },
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).fields).toEqual({
    allowed_ips: '"10.0.0.0/33" is not an IP address or CIDR range.',
  });
  await dashboard.dispose();
});

test("rolling a key: the new pair works at once and the old one through the overlap", async ({
  client,
  merchant,
  request,
}) => {
  const dashboard = await dashboardSession(merchant);
  // Key changes ask for the password once (two-factor sign-in is off here): the session's step-up window.
  await stepUp(dashboard, { password: merchant.password });
  const { keys } = await (await dashboard.get("/api/dashboard/api-keys")).json();
  const key = keys.find((k: { api_key: string }) => k.api_key === merchant.apiKey);
  const rolled = await dashboard.post(`/api/dashboard/api-keys/${key.id}/roll`, {
    data: { overlap_seconds: 3600 },
  });
  expect(rolled.status()).toBe(201);
  const fresh = await rolled.json();
  expect(fresh.replaced_key).toBe(merchant.apiKey);
  expect((await client.post("/accounts/list")).status()).toBe(200);
  const next = signedClient(request, { ...merchant, apiKey: fresh.api_key, apiSecret: fresh.api_secret });
  expect((await next.post("/accounts/list")).status()).toBe(200);
  // The rolled key is on its way out: it is not rolled again.
  expect(
    (
      await dashboard.post(`/api/dashboard/api-keys/${key.id}/roll`, {
        data: {},
      })
    ).status(),
  ).toBe(404);
  await dashboard.dispose();
});
