import { describe, expect, it } from "vitest";
import { publicOrigin } from "@/lib/api/public-origin";

const base = {
  publicUrl: undefined,
  host: "pay.example.com",
  forwardedHost: null,
  forwardedProto: null,
  peer: "198.51.100.4",
  trustedProxies: [] as string[],
};

describe("the origin of the public links Kassa builds", () => {
  it("is KASSA_PUBLIC_URL whenever it is set, whatever the headers say", () => {
    expect(
      publicOrigin({
        ...base,
        publicUrl: "https://pay.shop.test/kassa/",
        host: "evil.test",
        forwardedHost: "evil.test",
        forwardedProto: "http",
        peer: "10.0.0.2",
        trustedProxies: ["10.0.0.0/8"],
      }),
    ).toBe("https://pay.shop.test/kassa");
  });

  it("is the Host header without one, over plain http", () => {
    expect(publicOrigin({ ...base, host: "localhost:3740" })).toBe("http://localhost:3740");
  });

  it("ignores forwarded headers from a peer that is not a trusted proxy", () => {
    expect(
      publicOrigin({
        ...base,
        forwardedHost: "evil.test",
        forwardedProto: "https",
        trustedProxies: ["10.0.0.0/8"],
      }),
    ).toBe("http://pay.example.com");
  });

  it("believes X-Forwarded-Host and -Proto from a trusted proxy (first value of a chain)", () => {
    expect(
      publicOrigin({
        ...base,
        host: "127.0.0.1:3000",
        forwardedHost: "pay.shop.test, inner.test",
        forwardedProto: "https, http",
        peer: "::ffff:10.0.0.2",
        trustedProxies: ["10.0.0.0/8"],
      }),
    ).toBe("https://pay.shop.test");
  });

  it("refuses a Host that is not a bare host[:port], so it cannot splice a path or user info into the link", () => {
    expect(publicOrigin({ ...base, host: "evil.test/pay?x=" })).toBe("http://localhost");
    expect(publicOrigin({ ...base, host: "pay.example.com@evil.test" })).toBe("http://localhost");
    expect(
      publicOrigin({
        ...base,
        forwardedHost: "a.test/b",
        peer: "10.0.0.2",
        trustedProxies: ["10.0.0.0/8"],
      }),
    ).toBe("http://pay.example.com");
  });

  it("answers each request for its own host when hosts and schemes alternate (the last origin is kept)", () => {
    const proxied = { ...base, peer: "10.0.0.2", trustedProxies: ["10.0.0.0/8"] };
    const asked = [
      [{ ...base, host: "a.test:3000" }, "http://a.test:3000"],
      [{ ...base, host: "b.test" }, "http://b.test"],
      [{ ...proxied, host: "a.test:3000", forwardedProto: "https" }, "https://a.test:3000"],
      [{ ...base, host: "a.test:3000" }, "http://a.test:3000"],
      // Passes the character check, fails the URL parser: the fallback, then the host before it again.
      [{ ...base, host: "[::1" }, "http://localhost"],
      [{ ...base, host: "[::1" }, "http://localhost"],
      [{ ...base, host: "[::1]:8080" }, "http://[::1]:8080"],
      [{ ...base, host: "b.test" }, "http://b.test"],
    ] as const;
    for (const [input, origin] of asked) expect(publicOrigin(input)).toBe(origin);
  });
});
