import { describe, expect, it } from "vitest";
import {
  CALLBACK_STATUSES,
  canTransition,
  DEPOSIT_TRANSITIONS,
  INVOICE_STATUSES,
  isAllowedMove,
  isCallbackStatus,
  OPEN_INVOICE_STATUSES,
  TERMINAL_INVOICE_STATUSES,
  TRANSITIONS,
} from "@/lib/transactions/statuses";

describe("the transition tables", () => {
  it("split an invoice's statuses into open and final as the public API does", () => {
    expect(INVOICE_STATUSES).toEqual([
      "created",
      "pending",
      "processing",
      "confirmed",
      "failed",
      "cancelled",
    ]);
    expect(OPEN_INVOICE_STATUSES).toEqual(["created", "pending", "processing"]);
    expect(TERMINAL_INVOICE_STATUSES).toEqual(["confirmed", "failed", "cancelled"]);
  });

  it("name only statuses of their own kind, in transitions and in callbacks", () => {
    for (const [kind, table] of Object.entries(TRANSITIONS) as [
      string,
      Record<string, readonly string[]>,
    ][]) {
      const statuses = Object.keys(table);
      for (const targets of Object.values(table))
        for (const to of targets) expect(statuses, kind).toContain(to);
      for (const status of CALLBACK_STATUSES[kind as keyof typeof CALLBACK_STATUSES])
        expect(statuses, kind).toContain(status);
    }
    for (const targets of Object.values(DEPOSIT_TRANSITIONS))
      for (const to of targets) expect(Object.keys(DEPOSIT_TRANSITIONS)).toContain(to);
  });

  it("allow what the life cycle allows and nothing back from an end", () => {
    expect(canTransition("withdrawal", "pending", "processing")).toBe(true);
    expect(canTransition("withdrawal", "sending", "rejected")).toBe(false);
    expect(canTransition("invoice", "confirmed", "pending")).toBe(false);
    expect(canTransition("deposit", "verifying", "confirmed")).toBe(true);
  });

  it("let a payment's own row move only forward from seen or held, by the same lookup", () => {
    const statuses = Object.keys(DEPOSIT_TRANSITIONS);
    const allowed = statuses.flatMap((from) =>
      statuses.filter((to) => isAllowedMove(DEPOSIT_TRANSITIONS, from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed.sort()).toEqual(
      ["held→credited", "held→rejected", "held→unwound", "seen→credited", "seen→held", "seen→unwound"].sort(),
    );
    expect(isAllowedMove(DEPOSIT_TRANSITIONS, "no-such-status", "credited")).toBe(false);
  });

  it("send callbacks for a type by its kind's list: every payout type as a withdrawal", () => {
    for (const type of ["withdrawal", "withdrawal_exchange", "withdrawal_instant"])
      expect([isCallbackStatus(type, "confirmed"), isCallbackStatus(type, "processing")]).toEqual([
        true,
        false,
      ]);
    expect(isCallbackStatus("invoice", "created")).toBe(false);
    expect(isCallbackStatus("deposit", "below_minimum")).toBe(true);
    expect(isCallbackStatus("refund", "confirmed")).toBe(false);
  });
});
