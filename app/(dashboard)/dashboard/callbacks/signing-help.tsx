import { ScrollRegion } from "@/components/ui/scroll-region";

const NODE_SAMPLE = `import { createHmac, timingSafeEqual } from "node:crypto";

// Read the raw body: the signature is over these exact bytes, not re-serialised JSON.
export function isFromKassa(rawBody: Buffer, signature: string, apiSecret: string) {
  const expected = createHmac("sha512", apiSecret).update(rawBody).digest("hex");
  return signature.length === expected.length &&
    timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}`;

const PHP_SAMPLE = `$raw = file_get_contents('php://input');
$expected = hash_hmac('sha512', $raw, $apiSecret);
if (!hash_equals($expected, $_SERVER['HTTP_X_PROCESSING_SIGNATURE'] ?? '')) {
    http_response_code(401);
    exit;
}`;

/** How to check that a callback came from Kassa, next to the setting it applies to. */
export function SigningHelp() {
  return (
    <section aria-labelledby="signing" className="mt-8 max-w-3xl">
      <h2 id="signing" className="text-xl font-semibold">
        Verifying callbacks
      </h2>
      <p className="mt-2 text-sm">
        Every callback is a POST of a JSON body with two headers: <code>X-Processing-Key</code>, the public
        key of the API key that signed it (see Signing key above), and <code>X-Processing-Signature</code>,
        the HMAC-SHA512 of the raw body with that key&apos;s secret, in lowercase hex. Look the secret up by
        that key. While a rolled key&apos;s overlap lasts, <code>X-Processing-Next-Key</code> and{" "}
        <code>X-Processing-Next-Signature</code> carry the new key&apos;s signature too: check the pair whose
        key you know. Compute it over the bytes you received, before parsing them, and compare in constant
        time. Answer any 2xx within 10 seconds; anything else is retried after 1, 5, 15, 30, 60 minutes and so
        on. The same callback can arrive more than once: deduplicate on <code>id</code> and{" "}
        <code>status</code>. <code>X-Kassa-Event</code> names the event (<code>test</code> for a test
        callback).
      </p>
      <h3 className="mt-3 text-sm font-semibold">Node.js</h3>
      <ScrollRegion label="Node.js sample" className="mt-1 rounded-md bg-slate-100 p-3 dark:bg-slate-900">
        <pre className="text-xs">
          <code>{NODE_SAMPLE}</code>
        </pre>
      </ScrollRegion>
      <h3 className="mt-3 text-sm font-semibold">PHP</h3>
      <ScrollRegion label="PHP sample" className="mt-1 rounded-md bg-slate-100 p-3 dark:bg-slate-900">
        <pre className="text-xs">
          <code>{PHP_SAMPLE}</code>
        </pre>
      </ScrollRegion>
    </section>
  );
}
