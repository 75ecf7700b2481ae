import { createMerchant, expect, sandboxCredit, sign, signedClient, test } from "../fixtures";

test.describe("request signing (X-Processing-Key / X-Processing-Signature)", () => {
  test("a correctly signed request succeeds", async ({ client }) => {
    const response = await client.post("/accounts/list");
    expect(response.status()).toBe(200);
    expect((await response.json()).data).toHaveLength(12);
  });

  test("a signature made with another secret is refused", async ({ client }) => {
    const body = "{}";
    const response = await client.send("POST", "/accounts/list", body, {
      "x-processing-signature": sign(body, "not-the-secret"),
    });
    expect(response.status()).toBe(403);
    expect(await response.json()).toEqual({ error: "Bad signature header", code: "bad_header_signature" });
  });

  test("missing headers are named by code, in the public API's words", async ({ client }) => {
    const noKey = await client.send("POST", "/accounts/list", "{}", { "x-processing-key": undefined });
    expect(noKey.status()).toBe(403);
    expect(await noKey.json()).toEqual({ error: "No key header", code: "required_header_key" });

    const noSignature = await client.send("POST", "/accounts/list", "{}", {
      "x-processing-signature": undefined,
    });
    expect(noSignature.status()).toBe(403);
    expect(await noSignature.json()).toEqual({
      error: "No signature header",
      code: "required_header_signature",
    });
  });

  test("an unknown key is refused without saying more", async ({ client }) => {
    const response = await client.send("POST", "/accounts/list", "{}", { "x-processing-key": "pk_unknown" });
    expect(response.status()).toBe(403);
    expect(await response.json()).toEqual({ error: "Bad key header", code: "bad_header_key" });
  });

  test("a body altered after signing is refused", async ({ client }) => {
    const signed = '{"visible":true}';
    const response = await client.send("POST", "/currencies/list", '{"visible":false}', {
      "x-processing-signature": sign(signed, client.merchant.apiSecret),
    });
    expect(response.status()).toBe(403);
    expect((await response.json()).code).toBe("bad_header_signature");
  });

  test("spaced and compact JSON are each valid when signed as sent, and only then", async ({ client }) => {
    const compact = '{"visible":true}';
    const spaced = '{\n  "visible" : true\n}';
    expect((await client.send("POST", "/currencies/list", compact)).status()).toBe(200);
    expect((await client.send("POST", "/currencies/list", spaced)).status()).toBe(200);
    const mismatched = await client.send("POST", "/currencies/list", spaced, {
      "x-processing-signature": sign(compact, client.merchant.apiSecret),
    });
    expect(mismatched.status()).toBe(403);
  });

  test("a body of null, as a public Go client sends it, is signed over those bytes and means {}", async ({
    client,
  }) => {
    for (const path of ["/accounts/list", "/currencies/list"]) {
      const asNull = await client.send("POST", path, "null");
      expect(asNull.status(), path).toBe(200);
      const asEmpty = await client.send("POST", path, "{}");
      expect(await asNull.json(), path).toEqual(await asEmpty.json());
    }
    // The signature covers the four bytes: signed over {} they are refused.
    const wrong = await client.send("POST", "/accounts/list", "null", {
      "x-processing-signature": sign("{}", client.merchant.apiSecret),
    });
    expect(wrong.status()).toBe(403);
    expect(await wrong.json()).toEqual({ error: "Bad signature header", code: "bad_header_signature" });
  });

  test("a request with no body is signed over the empty string, and {} works too", async ({ client }) => {
    expect((await client.send("POST", "/accounts/list", "")).status()).toBe(200);
    expect((await client.send("POST", "/accounts/list", "{}")).status()).toBe(200);
    const wrong = await client.send("POST", "/accounts/list", "", {
      "x-processing-signature": sign("{}", client.merchant.apiSecret),
    });
    expect(wrong.status()).toBe(403);
  });

  test("a GET carries a signed body through to the handler", async ({ client }) => {
    const body = '{"visible":true}';
    const response = await client.send("GET", "/currencies/list", body);
    expect(response.status()).toBe(200);
    expect((await response.json()).data.map((c: { currency: string }) => c.currency)).toContain("BTC");
    // The signature covers the GET body: a different body with the old signature is refused.
    const altered = await client.send("GET", "/currencies/list", '{"visible":false}', {
      "x-processing-signature": sign(body, client.merchant.apiSecret),
    });
    expect(altered.status()).toBe(403);
    // And the body is really parsed: an invalid value in it is a validation error.
    const invalid = await client.send("GET", "/currencies/list", '{"visible":"yes"}');
    expect(invalid.status()).toBe(400);
    expect(await invalid.json()).toEqual({ errors: { visible: "The visible field must be true or false." } });
  });

  test("revoking a key takes effect on the very next request", async ({ client, request }) => {
    const { cli } = await import("../fixtures");
    const second = await cli(
      "api-keys",
      "create",
      "--merchant",
      String(client.merchant.merchantId),
      "--label",
      "temp",
    );
    const secondClient = signedClient(request, {
      ...client.merchant,
      apiKey: String(second.api_key),
      apiSecret: String(second.api_secret),
    });
    expect((await secondClient.post("/accounts/list")).status()).toBe(200);
    await cli(
      "api-keys",
      "revoke",
      "--merchant",
      String(client.merchant.merchantId),
      "--key",
      String(second.api_key),
    );
    const after = await secondClient.post("/accounts/list");
    expect(after.status()).toBe(403);
    expect((await after.json()).code).toBe("bad_header_key");
    // The merchant's other key keeps working.
    expect((await client.post("/accounts/list")).status()).toBe(200);
  });

  test("ping needs no authentication", async ({ request }) => {
    const response = await request.get("/api/v2/ping");
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe("OK");
  });
});

test.describe("error bodies", () => {
  test("a body that is not a JSON object is bad_content_format", async ({ client }) => {
    for (const body of ["{not json", "[1,2]", '"text"', "5", "nul", '{"a":1,"a":2}']) {
      const response = await client.send("POST", "/accounts/list", body);
      expect(response.status(), body).toBe(400);
      expect(await response.json()).toEqual({ error: "Bad content format", code: "bad_content_format" });
    }
  });

  test("invalid UTF-8 is bad_content_format, not a crash", async ({ client, request }) => {
    const bytes = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
    const response = await request.fetch("/api/v2/accounts/list", {
      method: "POST",
      data: bytes,
      headers: {
        "content-type": "application/json",
        "x-processing-key": client.merchant.apiKey,
        "x-processing-signature": sign(bytes, client.merchant.apiSecret),
      },
    });
    expect(response.status()).toBe(400);
    expect((await response.json()).code).toBe("bad_content_format");
  });

  test("validation errors name the field", async ({ client }) => {
    const response = await client.send("POST", "/currencies/list", '{"visible":"x"}');
    expect(response.status()).toBe(400);
    expect(await response.json()).toEqual({
      errors: { visible: "The visible field must be true or false." },
    });
  });

  test("bodies over the cap are 413, on POST and on GET", async ({ client }) => {
    const huge = JSON.stringify({ padding: "x".repeat(70 * 1024) });
    for (const method of ["POST", "GET"] as const) {
      const response = await client.send(method, "/accounts/list", huge);
      expect(response.status(), method).toBe(413);
      expect((await response.json()).code).toBe("payload_too_large");
    }
  });

  test("unknown paths under /api/v2 are a JSON 404", async ({ client, request }) => {
    const signed = await client.post("/invoices/nothing-here");
    expect(signed.status()).toBe(404);
    expect(await signed.json()).toEqual({ error: "Not found", code: "not_found" });
    const plain = await request.get("/api/v2/does/not/exist");
    expect(plain.status()).toBe(404);
    expect(plain.headers()["content-type"]).toContain("application/json");
  });
});

test.describe("isolation between merchants", () => {
  test("a merchant's key reads only its own balances", async ({ client, request }) => {
    const other = await createMerchant("Other Shop");
    await sandboxCredit(client.merchant.merchantId, "BTC", "0.5");
    await sandboxCredit(other.merchantId, "BTC", "7.25");

    const balance = async (merchantClient: typeof client) => {
      const body = await (await merchantClient.post("/accounts/list")).json();
      return body.data.find((a: { currency: string }) => a.currency === "BTC").balance;
    };
    expect(await balance(client)).toBe("0.50000000");
    expect(await balance(signedClient(request, other))).toBe("7.25000000");
  });
});
