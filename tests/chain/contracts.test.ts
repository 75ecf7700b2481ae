import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { artifactPath, compileContract, contractSources } from "@/scripts/build-contracts.mjs";

describe("contract artifacts", () => {
  it("the checked-in artifact of every contract is what its source compiles to", () => {
    const sources: string[] = contractSources();
    expect(sources.map((f) => path.basename(f))).toContain("TestToken.sol");
    for (const file of sources) {
      const checkedIn = JSON.parse(fs.readFileSync(artifactPath(file), "utf8"));
      expect(checkedIn).toEqual(compileContract(file));
    }
  });
});
