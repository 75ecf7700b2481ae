import { describe, expect, it } from "vitest";
import { describeAttemptError } from "@/app/(dashboard)/dashboard/callbacks/describe-attempt";
import { postCallback } from "@/lib/callbacks/post-callback";
import { startReceiver } from "../support/receiver";

const settings = { mode: "sandbox" as const, timeoutMs: 300 };

/** What the delivery log says for what real attempts record (lib/callbacks/post-callback.ts). */
describe("callback attempt errors in the merchant's words", () => {
  it("explains an error status, a redirect and a timeout from a real receiver", async () => {
    const receiver = await startReceiver();
    try {
      receiver.queue.push(
        { status: 503 },
        { status: 301, location: "https://shop.example/new" },
        { status: 200, delayMs: 2_000 },
      );
      const send = () => postCallback(new URL(receiver.url()), "{}", {}, settings);
      expect(describeAttemptError((await send()).error!)).toBe(
        "Your endpoint answered HTTP 503. Any 2xx answer counts as delivered; check your handler's log.",
      );
      expect(describeAttemptError((await send()).error!)).toBe(
        "Your endpoint redirected to https://shop.example/new. Kassa does not follow redirects: save the final URL.",
      );
      expect(describeAttemptError((await send()).error!)).toBe(
        "No answer within 0.3 s. Answer first, then do slow work in the background.",
      );
    } finally {
      await receiver.close();
    }
  });

  it("explains a closed port and a refused address", async () => {
    const receiver = await startReceiver();
    const url = new URL(receiver.url());
    await receiver.close();
    expect(describeAttemptError((await postCallback(url, "{}", {}, settings)).error!)).toBe(
      "Nothing is listening at that address (connection refused).",
    );
    const refused = await postCallback(new URL("http://10.0.0.1/hook"), "{}", {}, settings);
    expect(describeAttemptError(refused.error!)).toBe(
      "Not sent: the URL points to a private or local address, which Kassa does not call in this mode.",
    );
  });
});
