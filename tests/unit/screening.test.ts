import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listScreeningProvider } from "@/lib/compliance/list-screening-provider";
import { normalizeAddress, parseAddressList } from "@/lib/compliance/read-address-list";
import { formatScore, isAtOrAbove, scoreHundredths } from "@/lib/compliance/risk-score";
import { parseDecimal } from "@/lib/money";

const EVM = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("risk scores", () => {
  it("compares decimal scores exactly, never as floats", () => {
    expect(scoreHundredths("0")).toBe(0);
    expect(scoreHundredths("62.5")).toBe(6250);
    expect(scoreHundredths("100.00")).toBe(10000);
    expect(formatScore(6250)).toBe("62.5");
    expect(formatScore(10000)).toBe("100");
    expect(formatScore(5)).toBe("0.05");
    expect(isAtOrAbove("80", "80")).toBe(true);
    expect(isAtOrAbove("79.99", "80")).toBe(false);
    expect(() => scoreHundredths("100.01")).toThrow();
    expect(() => scoreHundredths("1e2")).toThrow();
  });
});

describe("operator address lists", () => {
  it("reads one address per line, drops comments and blank lines, and folds case where the format allows", () => {
    const list = parseAddressList(
      `# sanctions, 2026-11\n${EVM}  # a comment\n\n  1BoatSLRHtKNngkdXEeobR76b53LETtpyT\r\nBC1QCR8TE4KR609GCAWUTMRZA0J4XV80JY8Z306FYU\n`,
    );
    expect([...list]).toEqual([
      EVM.toLowerCase(),
      "1BoatSLRHtKNngkdXEeobR76b53LETtpyT",
      "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
    ]);
    // base58 is case-sensitive: another case is another address
    expect(list.has(normalizeAddress("1boatslrhtknngkdxeeobr76b53lettpyt"))).toBe(false);
    expect(list.has(normalizeAddress(EVM.toUpperCase().replace("0X", "0x")))).toBe(true);
  });
});

describe("the built-in screening provider", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "kassa-screening-unit-"));
  const denylistPath = path.join(dir, "deny.txt");
  const allowlistPath = path.join(dir, "allow.txt");
  writeFileSync(denylistPath, `${EVM}\n`);
  writeFileSync(allowlistPath, "0x1111111111111111111111111111111111111111\n");
  const provider = listScreeningProvider({
    denylistPath,
    allowlistPath,
    amountLimits: { ETH: parseDecimal("10") },
    newCustomerLimits: { ETH: parseDecimal("1") },
  });
  const input = (over: Partial<Parameters<typeof provider.score>[0]>) => ({
    merchantId: 1,
    senders: [],
    address: "0x2222222222222222222222222222222222222222",
    currency: "ETH",
    amount: parseDecimal("0.5"),
    customer: { reference: "c", previousPayments: 3 },
    ...over,
  });

  it("scores a denylisted sender 100, even when it is also allowlisted", async () => {
    writeFileSync(allowlistPath, `${EVM}\n`);
    expect(await provider.score(input({ senders: [EVM.toLowerCase()], amount: parseDecimal("50") }))).toEqual(
      {
        score: "100",
        reasons: [`Sender ${EVM.toLowerCase()} is on the denylist.`],
      },
    );
  });

  it("adds the rules at their thresholds and caps at 100; an allowlisted sender skips them", async () => {
    expect((await provider.score(input({}))).score).toBe("0");
    expect((await provider.score(input({ amount: parseDecimal("10") }))).score).toBe("60");
    expect(
      (
        await provider.score(
          input({ amount: parseDecimal("1"), customer: { reference: "n", previousPayments: 0 } }),
        )
      ).score,
    ).toBe("40");
    expect(
      (
        await provider.score(
          input({ amount: parseDecimal("10"), customer: { reference: "n", previousPayments: 0 } }),
        )
      ).score,
    ).toBe("100");
    // No customer known: the new-customer rule cannot apply.
    expect((await provider.score(input({ amount: parseDecimal("1"), customer: null }))).score).toBe("0");
    // Another currency has no limits.
    expect((await provider.score(input({ currency: "BTC", amount: parseDecimal("1000") }))).score).toBe("0");
    writeFileSync(allowlistPath, "0x3333333333333333333333333333333333333333\n");
    expect(
      await provider.score(
        input({ senders: ["0x3333333333333333333333333333333333333333"], amount: parseDecimal("99") }),
      ),
    ).toEqual({ score: "0", reasons: ["Sender is on the allowlist."] });
  });
});
