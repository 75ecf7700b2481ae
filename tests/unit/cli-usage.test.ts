import { expect, test } from "vitest";
import { KNOWN_COMMANDS, USAGE } from "@/cli/usage";
import { cliCommand } from "@/lib/cli/commands";

test("the CLI's usage lists exactly the commands the engine runs, once each", () => {
  const engine = cliCommand.options.map((option) => option.shape.name.value).sort();
  expect([...KNOWN_COMMANDS].sort()).toEqual(engine);
  expect(USAGE.match(/^ {2}cli /gm)).toHaveLength(engine.length);
});
