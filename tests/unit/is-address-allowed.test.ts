import { describe, expect, it } from "vitest";
import { isAddressAllowed } from "@/lib/api-keys/is-address-allowed";

describe("an API key's address allowlist", () => {
  it("judges each request by its own list and address when lists and addresses alternate", () => {
    // In this order on purpose: parsed lists and the last address are kept between calls.
    const asked: [string[] | null, string, boolean][] = [
      [["198.51.100.0/24"], "198.51.100.7", true],
      [["198.51.100.0/24"], "198.51.101.7", false],
      [["2001:db8::/32"], "198.51.101.7", false],
      [["2001:db8::/32", "198.51.101.0/24"], "198.51.101.7", true],
      [["198.51.100.0/24", "2001:db8::/32"], "2001:db8::1", true],
      [["198.51.100.0/24"], "2001:db8::1", false],
      // How Node reports an IPv4 peer on a dual-stack socket.
      [["198.51.100.0/24"], "::ffff:198.51.100.9", true],
      [["198.51.100.0/24"], "unknown", false],
      [["198.51.100.0/24"], "198.51.100.9", true],
      [["example.com", "198.51.100.0/24"], "198.51.100.9", true],
      [["example.com"], "198.51.100.9", false],
      [null, "unknown", true],
      [[], "198.51.101.7", true],
    ];
    for (const [list, address, isAllowed] of asked)
      expect([list, address, isAddressAllowed(list, address)]).toEqual([list, address, isAllowed]);
  });
});
