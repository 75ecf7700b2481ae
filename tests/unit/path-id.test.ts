import { describe, expect, it } from "vitest";
import { pathId } from "@/lib/api/path-id";

describe("pathId", () => {
  it("reads a positive whole number from the path", () => {
    expect(pathId({ id: "1" }, "No such thing.")).toBe(1);
    expect(pathId({ id: "9007199254740991" }, "No such thing.")).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("answers anything else with the caller's 404", () => {
    for (const id of [
      "",
      "0",
      "-1",
      "1.5",
      "abc",
      "9007199254740992",
      "Infinity",
      "1e3",
      "0x10",
      " 7 ",
      "7.0",
      "+7",
      "07",
    ])
      expect(() => pathId({ id }, "No such thing."), id).toThrow(
        expect.objectContaining({ code: "not_found", status: 404, message: "No such thing." }),
      );
    expect(() => pathId({}, "No such thing.")).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});
