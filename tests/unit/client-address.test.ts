import { describe, expect, it } from "vitest";
import { clientAddress } from "@/lib/auth/client-address";
import { loadConfig } from "@/lib/config";

const env = (vars: Record<string, string>) => ({ NODE_ENV: "test", ...vars }) as NodeJS.ProcessEnv;

describe("the client address of a sign-in", () => {
  it("ignores X-Forwarded-For when no proxy is trusted (the default)", () => {
    expect(clientAddress({ peer: "198.51.100.4", forwardedFor: "1.2.3.4", trustedProxies: [] })).toBe(
      "198.51.100.4",
    );
    expect(loadConfig(env({})).trustedProxies).toEqual([]);
  });

  it("ignores it from a peer that is not a configured proxy", () => {
    expect(
      clientAddress({ peer: "198.51.100.4", forwardedFor: "1.2.3.4", trustedProxies: ["10.0.0.0/8"] }),
    ).toBe("198.51.100.4");
  });

  it("reads it from the right through trusted proxies, so a client-written first entry is not believed", () => {
    expect(
      clientAddress({
        peer: "::ffff:10.0.0.2",
        forwardedFor: "6.6.6.6, 198.51.100.4, 10.0.0.7",
        trustedProxies: ["10.0.0.0/8"],
      }),
    ).toBe("198.51.100.4");
  });

  it("treats IPv4-mapped peers as IPv4 and answers unknown without a peer", () => {
    expect(clientAddress({ peer: "::ffff:192.0.2.1", forwardedFor: undefined, trustedProxies: [] })).toBe(
      "192.0.2.1",
    );
    expect(clientAddress({ peer: undefined, forwardedFor: "1.2.3.4", trustedProxies: [] })).toBe("unknown");
  });

  it("answers each peer its own address when peers alternate, and unknown for one that is not an address", () => {
    const peers = ["::ffff:192.0.2.1", "192.0.2.1", "2001:db8::1", "not-an-address", "::ffff:192.0.2.9"];
    const expected = ["192.0.2.1", "192.0.2.1", "2001:db8::1", "unknown", "192.0.2.9"];
    for (let round = 0; round < 2; round++)
      for (const [i, peer] of peers.entries())
        expect(clientAddress({ peer, forwardedFor: undefined, trustedProxies: [] })).toBe(expected[i]);
  });

  it("refuses a KASSA_TRUSTED_PROXIES entry that is not an address or range", () => {
    expect(loadConfig(env({ KASSA_TRUSTED_PROXIES: "10.0.0.1, fd00::/8" })).trustedProxies).toEqual([
      "10.0.0.1",
      "fd00::/8",
    ]);
    expect(() => loadConfig(env({ KASSA_TRUSTED_PROXIES: "10.0.0.1,proxy.internal" }))).toThrow(
      /KASSA_TRUSTED_PROXIES/,
    );
  });

  it("judges each request's peer afresh when peers and proxy lists alternate (the last peer is kept)", () => {
    const inner = ["10.0.0.0/8"];
    const other = ["192.0.2.0/24"];
    const asked: [string, string[], string][] = [
      ["::ffff:10.0.0.2", inner, "198.51.100.4"],
      ["198.51.100.77", inner, "198.51.100.77"],
      ["::ffff:10.0.0.2", inner, "198.51.100.4"],
      // The same peer under another list is no longer a proxy.
      ["::ffff:10.0.0.2", other, "10.0.0.2"],
      ["192.0.2.9", other, "198.51.100.4"],
      ["not an address", other, "unknown"],
      ["::ffff:10.0.0.2", inner, "198.51.100.4"],
    ];
    for (const [peer, trustedProxies, client] of asked)
      expect([peer, clientAddress({ peer, forwardedFor: "198.51.100.4", trustedProxies })]).toEqual([
        peer,
        client,
      ]);
  });
});
