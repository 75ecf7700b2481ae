// A Vitest reporter for `npm test` (scripts/test.mjs): counts the tests that passed only on a retry,
// so a first-attempt failure shows in the suite's total even where a retry hid it. Vitest's JSON
// report counts such a test as passed and does not say it was retried. Writes
// { "failedFirstAttempt": N, "tests": [names] } to the file named by KASSA_FIRST_ATTEMPTS_FILE.
import fs from "node:fs";

export default class FirstAttemptsReporter {
  onTestRunEnd(testModules) {
    const file = process.env.KASSA_FIRST_ATTEMPTS_FILE;
    if (!file) return;
    const tests = [];
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const isRetried = (testCase.diagnostic()?.retryCount ?? 0) > 0;
        // A test that failed every attempt is in the JSON report's failures already.
        if (isRetried && testCase.result().state === "passed") tests.push(testCase.fullName);
      }
    }
    fs.writeFileSync(file, JSON.stringify({ failedFirstAttempt: tests.length, tests }));
  }
}
