import { describe, expect, it } from "vitest";
import { mayScrapeMetrics } from "@/lib/metrics/may-scrape-metrics";

const token = "a-long-metrics-token";

describe("who may scrape /metrics", () => {
  it("without a token: loopback only (IPv4, IPv6, mapped), others never learn the path exists", () => {
    for (const peerAddress of ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
      expect(mayScrapeMetrics({ peerAddress, authorization: null, token: undefined })).toBe("allowed");
    for (const peerAddress of ["192.0.2.2", "10.0.0.1", "::ffff:192.0.2.2", undefined])
      expect(mayScrapeMetrics({ peerAddress, authorization: null, token: undefined })).toBe("hidden");
    // A bearer header changes nothing while no token is configured.
    expect(mayScrapeMetrics({ peerAddress: "192.0.2.2", authorization: "Bearer x", token: undefined })).toBe(
      "hidden",
    );
  });

  it("with a token: only that bearer token, from anywhere, loopback included", () => {
    expect(mayScrapeMetrics({ peerAddress: "192.0.2.2", authorization: `Bearer ${token}`, token })).toBe(
      "allowed",
    );
    // The scheme's name is case-insensitive (RFC 9110).
    expect(mayScrapeMetrics({ peerAddress: "192.0.2.2", authorization: `bearer ${token}`, token })).toBe(
      "allowed",
    );
    expect(mayScrapeMetrics({ peerAddress: "127.0.0.1", authorization: null, token })).toBe("unauthorized");
    for (const authorization of [`Bearer ${token}x`, `Basic ${token}`, token, "Bearer ", "Bearer é"])
      expect(mayScrapeMetrics({ peerAddress: "192.0.2.2", authorization, token })).toBe("unauthorized");
  });
});
