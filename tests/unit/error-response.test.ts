import { describe, expect, it, onTestFinished, vi } from "vitest";
import { errorResponse } from "@/lib/api/error-response";
import { requestContextStorage } from "@/lib/api/request-context";
import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { withPublicCheckout } from "@/lib/api/with-public-checkout";
import { withSession } from "@/lib/api/with-session";
import { openDatabase, registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { fieldError, KassaError } from "@/lib/errors";
import { createInvoiceEndpoint } from "@/lib/schemas/invoices";

const inRequest = <T>(run: () => T): T => requestContextStorage().run({ requestId: "req-1" }, run);
const noParams = { params: Promise.resolve({}) };

async function read(response: Response) {
  return { status: response.status, body: await response.json(), headers: response.headers };
}

describe("the API's error table", () => {
  it("answers validation failures in the public API's shape to merchants and with fields to the dashboard", async () => {
    const error = fieldError({ amount: "The amount must be positive." });
    const api = await read(errorResponse(error, "api"));
    expect(api.status).toBe(400);
    expect(api.body).toEqual({ errors: { amount: "The amount must be positive." } });
    const dashboard = await read(errorResponse(error, "dashboard"));
    expect(dashboard.status).toBe(400);
    expect(dashboard.body).toEqual({
      error: "The given data was invalid.",
      code: "validation_failed",
      fields: { amount: "The amount must be positive." },
    });
  });

  it("keeps a known error's status and code, and Retry-After for either audience", async () => {
    const error = new KassaError("rate_limited", "Too many requests.");
    error.retryAfterSeconds = 3;
    for (const audience of ["api", "dashboard"] as const) {
      const { status, body, headers } = await read(inRequest(() => errorResponse(error, audience)));
      expect(status).toBe(429);
      expect(body).toEqual({ error: "Too many requests.", code: "rate_limited" });
      expect(headers.get("retry-after")).toBe("3");
      expect(headers.get("x-request-id")).toBe("req-1");
    }
  });

  it("answers contention that outlasted the retries with a 503 and Retry-After, not a 500", async () => {
    for (const code of ["40001", "40P01", "55P03", "53300"]) {
      const driverError = Object.assign(new Error("could not serialize access"), { code });
      for (const audience of ["api", "dashboard"] as const) {
        const { status, body, headers } = await read(
          inRequest(() => errorResponse(new Error("query failed", { cause: driverError }), audience)),
        );
        expect(status, code).toBe(503);
        expect(body.code).toBe("service_unavailable");
        expect(body.error).toMatch(/nothing was saved/);
        expect(headers.get("retry-after")).toBe("1");
      }
    }
    // Any other database fault is still ours: a 500 with the request id.
    const other = Object.assign(new Error("relation does not exist"), { code: "42P01" });
    expect(
      (await read(inRequest(() => errorResponse(new Error("query failed", { cause: other }))))).status,
    ).toBe(500);
  });

  it("turns text the database cannot store into a 400, not a 500", async () => {
    const driverError = Object.assign(new Error("invalid byte sequence"), { code: "22021" });
    const { status, body } = await read(errorResponse(new Error("query failed", { cause: driverError })));
    expect(status).toBe(400);
    expect(body.code).toBe("bad_content_format");
  });

  it("answers an unexpected error with a generic 500 that carries the request id and no detail", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const audience of ["api", "dashboard"] as const) {
        const response = inRequest(() => errorResponse(new Error("secret=hunter2 at line 12"), audience));
        const { status, body } = await read(response);
        expect(status).toBe(500);
        expect(body).toMatchObject({ code: "internal_error", request_id: "req-1" });
        expect(JSON.stringify(body)).not.toContain("hunter2");
      }
      expect(log).toHaveBeenCalledTimes(2);
    } finally {
      log.mockRestore();
    }
  });
});

describe("the three wrappers", () => {
  it("answer with the error shape of their audience", async () => {
    const never = async () => {
      throw new Error("the handler must not run");
    };
    const unsigned = withMerchantSignature(createInvoiceEndpoint, never);
    const merchant = await read(
      await unsigned(
        new Request("http://kassa.test/api/v2/invoices/create", { method: "POST", body: "{}" }),
        noParams,
      ),
    );
    expect(merchant.status).toBe(403);
    expect(merchant.body).toEqual({
      error: "No key header",
      code: "required_header_key",
    });

    const checkout = withPublicCheckout({ request: createInvoiceEndpoint.request }, never);
    const customer = await read(
      await checkout(
        new Request("http://kassa.test/api/checkout/t", { method: "POST", body: "not json" }),
        noParams,
      ),
    );
    expect(customer.status).toBe(400);
    expect(customer.body).toEqual({ error: "Bad content format", code: "bad_content_format" });

    const dashboard = withSession({ permission: "invoices.manage", successStatus: 201 }, never);
    const crossSite = new Request("http://kassa.test/api/dashboard/invoices", {
      method: "POST",
      headers: { origin: "https://evil.test", host: "kassa.test" },
      body: "{}",
    });
    const merchantPage = await read(await dashboard(crossSite, noParams));
    expect(merchantPage.status).toBe(403);
    expect(merchantPage.body).toEqual({
      error: "This request did not come from the Kassa dashboard.",
      code: "forbidden",
    });
  });

  it.each(["null", "not a url", "https://"])(
    "refuse a dashboard mutation whose Origin is %j as not ours, never a 500",
    async (origin) => {
      const dashboard = withSession({ permission: "invoices.manage" }, async () => {
        throw new Error("the handler must not run");
      });
      const request = new Request("http://kassa.test/api/dashboard/invoices", {
        method: "POST",
        headers: { origin, host: "kassa.test" },
        body: "{}",
      });
      const answer = await read(await dashboard(request, noParams));
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: "forbidden" });
    },
  );

  it("send the success status the endpoint names", async () => {
    // The wrapper hands its handler the process's database; an empty in-memory one is enough here.
    const handle = await openDatabase({ kind: "pglite" });
    registerDatabase(handle);
    onTestFinished(async () => {
      unregisterDatabase();
      await handle.close();
    });
    const created = withPublicCheckout({ successStatus: 201 }, async ({ body, query }) => ({
      body,
      q: query.get("q"),
    }));
    const response = await created(
      new Request("http://kassa.test/api/checkout/t?q=1", { method: "POST", body: '{"a":"b"}' }),
      noParams,
    );
    expect(await read(response)).toMatchObject({ status: 201, body: { body: { a: "b" }, q: "1" } });
  });
});
