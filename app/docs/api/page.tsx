import type { Metadata } from "next";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { SiteHeader } from "@/components/ui/site-header";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { flattenFields, type SchemaNode } from "@/lib/openapi/fields";

export const metadata: Metadata = { title: "API reference" };

type Operation = {
  summary: string;
  description?: string;
  security: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: { "application/json": { schema: SchemaNode } } };
  responses: Record<string, { description: string }>;
};

const CALLBACK_SAMPLE = `import { createHmac, timingSafeEqual } from "node:crypto";
import express from "express";

// The secret of every key of yours that may sign, by key (X-Processing-Key names the signer).
const SECRETS = new Map([[API_KEY, API_SECRET]]);

function isSignedBy(body, key, signature) {
  const secret = key && SECRETS.get(key);
  if (!secret || !signature) return false;
  const expected = createHmac("sha512", secret).update(body).digest();
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const app = express();
// Keep the raw bytes: the signature covers them exactly as sent.
app.post("/kassa/callbacks", express.raw({ type: "application/json" }), (req, res) => {
  // During a key roll the new key signs too: either signature is enough.
  const isGenuine =
    isSignedBy(req.body, req.get("X-Processing-Key"), req.get("X-Processing-Signature")) ||
    isSignedBy(req.body, req.get("X-Processing-Next-Key"), req.get("X-Processing-Next-Signature"));
  if (!isGenuine) return res.sendStatus(403);

  const event = JSON.parse(req.body.toString("utf8"));
  // Deduplicate on the callback id: a retry repeats it, a resend names it in X-Kassa-Redelivery-Of.
  const callbackId = req.get("X-Kassa-Redelivery-Of") ?? req.get("X-Kassa-Callback-Id");
  if (!alreadyApplied(callbackId)) apply(event);
  res.sendStatus(200); // anything but 2xx is retried
});`;

const SIGNING_SAMPLE = `import { createHmac } from "node:crypto";

const body = JSON.stringify({});                 // the exact bytes you send
const signature = createHmac("sha512", API_SECRET).update(body).digest("hex");

const response = await fetch(\`\${BASE_URL}/api/v2/accounts/list\`, {
  method: "POST",
  headers: {
    "Content-Type": "application/json",
    "X-Processing-Key": API_KEY,
    "X-Processing-Signature": signature,
  },
  body,
});`;

/** Renders `code` spans of the API descriptions. */
function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`)/).map((part, i) =>
        part.startsWith("`") && part.endsWith("`") ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string never reorder
          <code key={i} className="rounded bg-slate-100 px-1 text-[0.9em] dark:bg-slate-800">
            {part.slice(1, -1)}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function FieldList({ schema, components }: { schema: SchemaNode; components: Record<string, SchemaNode> }) {
  const rows = flattenFields(schema, components);
  if (rows.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No parameters.</p>;
  return (
    <>
      <dl className="mt-2 divide-y divide-slate-100 border-y border-slate-100 dark:divide-slate-900 dark:border-slate-900">
        {rows.map((row) => (
          <div key={row.name} className="py-2 sm:grid sm:grid-cols-[16rem_1fr] sm:gap-4">
            <dt className="break-all font-mono text-sm">
              {row.name}
              {row.isRequired && (
                <span className="ml-2 rounded bg-red-50 px-1.5 py-0.5 font-sans text-xs text-red-800 dark:bg-red-950 dark:text-red-200">
                  required
                </span>
              )}
            </dt>
            <dd className="mt-1 text-sm sm:mt-0">
              <span className="break-all font-mono text-xs text-slate-600 dark:text-slate-400">
                {row.type}
              </span>
              {row.description && (
                <p className="mt-0.5 text-slate-700 dark:text-slate-300">
                  <Prose text={row.description} />
                </p>
              )}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Fields under sender_data and receiver_data depend on sender_type and receiver_type.
      </p>
    </>
  );
}

export default function ApiReferencePage() {
  const document = buildOpenApiDocument();
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      path,
      method,
      operation: operation as Operation,
    })),
  );
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-5xl px-4 py-10">
        <h1 className="text-3xl font-bold tracking-tight">API reference</h1>
        <p className="mt-3 max-w-3xl text-slate-700 dark:text-slate-300">{document.info.description}</p>
        <p className="mt-2 text-sm">
          Machine-readable:{" "}
          <a className="text-brand-600 underline dark:text-indigo-300" href="/api/v2/openapi.json">
            /api/v2/openapi.json
          </a>{" "}
          (OpenAPI 3.1).
        </p>

        <section aria-labelledby="signing" className="mt-10">
          <h2 id="signing" className="text-2xl font-semibold">
            Signing requests
          </h2>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            Sign the exact bytes of the body, and send those same bytes. Reformatting the JSON after signing
            changes the bytes and the signature no longer matches. A request without a body is signed over the
            empty string. A body of <code>null</code> (signed over those four bytes) means <code>{"{}"}</code>
            , and an optional field sent as <code>null</code> means the field is absent; a required field sent
            as <code>null</code> is a field error.
          </p>
          <ScrollRegion label="Signing example in JavaScript" className="mt-3 rounded bg-slate-900">
            <pre className="p-4 text-sm text-slate-100">
              <code>{SIGNING_SAMPLE}</code>
            </pre>
          </ScrollRegion>
          <h3 className="mt-6 text-lg font-semibold">Errors</h3>
          <ul className="mt-2 list-disc space-y-1 pl-6 text-slate-700 dark:text-slate-300">
            <li>
              400 <code>{'{"errors": {"field": "message"}}'}</code>: validation; nested fields are dotted, as
              in <code>sender_data.first_name</code>.
            </li>
            <li>
              400 <code>bad_content_format</code>: the body is not a JSON object.
            </li>
            <li>
              403 <code>{'{"error": "No key header", "code": "required_header_key"}'}</code>, and likewise{" "}
              <code>Bad key header</code> (<code>bad_header_key</code>), <code>No signature header</code> (
              <code>required_header_signature</code>), <code>Bad signature header</code> (
              <code>bad_header_signature</code>): the public API&apos;s texts.
            </li>
            <li>404 for unknown paths and for objects you may not see; 413 for bodies over 64 KiB.</li>
            <li>
              409 <code>idempotency_key_reused</code>, <code>idempotency_key_in_flight</code>: see below.
            </li>
          </ul>
        </section>

        <section aria-labelledby="idempotency" className="mt-10">
          <h2 id="idempotency" className="text-2xl font-semibold">
            Idempotent requests
          </h2>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            The requests that create or move something (marked below) accept an <code>Idempotency-Key</code>{" "}
            header: 1 to 255 characters of your choosing, a UUID for example, scoped to your merchant. Send
            the same key when you retry after a timeout or a lost connection. The first answer with a key (a
            success, or a 4xx from the operation) is kept for 24 hours: a retry with the same path and body
            gets it back byte for byte, with <code>Idempotent-Replayed: true</code>, and nothing happens
            twice.
          </p>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            The same key with a different path or body is refused with 409 <code>idempotency_key_reused</code>
            ; while the first request is still running, a retry gets 409{" "}
            <code>idempotency_key_in_flight</code> with <code>Retry-After</code>. Requests refused by
            validation or authentication, and 5xx answers, are not kept: retry them with the same key.
          </p>
        </section>

        <section aria-labelledby="callbacks" className="mt-10">
          <h2 id="callbacks" className="text-2xl font-semibold">
            Callbacks
          </h2>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            Kassa POSTs to your callback URL when an invoice becomes pending, processing, confirmed, failed or
            cancelled, and whenever a payment to an invoice is credited (<code>invoice.payment_credited</code>{" "}
            while others are still unconfirmed, <code>invoice.late_payment</code> after it closed); when a
            deposit to a permanent address is seen and confirmed; and when a withdrawal is confirmed or
            cancelled. Deposit and withdrawal bodies are the object <code>/transactions/info</code> returns.
            An invoice callback is the public API&apos;s: the invoice&apos;s own <code>status</code> (
            <code>pending</code>, <code>processing</code>, <code>confirmed</code>, <code>failed</code>,{" "}
            <code>cancelled</code>), <code>fixed_at</code> and <code>expires_at</code> in unix seconds (the
            24-hour processing deadline while a payment confirms), <code>currency_sent</code> (the amount
            asked and the <code>remaining_amount</code>), <code>currency_received</code> (what the payments
            bring, credited or at the rates fixed when they were seen, before and after the fee), and the
            public <code>error</code> texts (<code>Timer expired. User not paid.</code>,{" "}
            <code>Timer expired. User paid less than requested.</code>,{" "}
            <code>Timer expired. Transactions were in status processing too long.</code>,{" "}
            <code>Cancelled by the merchant.</code>). Every callback is signed like your requests:{" "}
            <code>X-Processing-Key</code> names the API key that signed it and{" "}
            <code>X-Processing-Signature</code> is the hex HMAC-SHA512 of the body with that key&apos;s
            secret. The signer is the key whose request created the transaction (for a deposit, the key that
            took the address); what was made in the dashboard or by Kassa, and test callbacks, are signed by
            the callback key an owner chooses on the Callbacks page. Creating a key never changes the signer,
            and a revoked or expired key never signs (the callback waits until an owner chooses a key). During
            a key roll&apos;s overlap the new key signs too, in <code>X-Processing-Next-Key</code> and{" "}
            <code>X-Processing-Next-Signature</code>; afterwards it signs alone. <code>X-Kassa-Event</code>{" "}
            names the change (for example <code>invoice.confirmed</code>), <code>X-Kassa-Callback-Id</code>{" "}
            identifies the callback, and a resend carries <code>X-Kassa-Redelivery-Of</code>.
          </p>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            Answer with any 2xx within 10 seconds. Anything else (an error, a timeout, a redirect, which is
            not followed) is retried after 1, 5, 15, 30, 60, 90, 120, 180, 240, 240, 240 and 240 minutes, then
            marked failed. Each attempt goes to the callback URL saved at that moment (an invoice&apos;s own{" "}
            <code>callback_url</code> stays with it), so fixing the URL redirects every pending retry.{" "}
            <code>POST /api/v2/callbacks/resend</code> sends a callback at once: one still being retried is
            attempted now, one already delivered or failed is sent again as a new delivery. Delivery is at
            least once, in order per transaction (a callback waits while an earlier one of its transaction is
            pending, and goes as soon as that one is delivered; a resend does not wait): deduplicate on{" "}
            <code>X-Kassa-Callback-Id</code> (or <code>X-Kassa-Redelivery-Of</code> on a redelivery), not on{" "}
            <code>id</code> and <code>status</code>, which repeat for an invoice paid in instalments. In
            production mode callback URLs must be https and public. List every callback with its delivery
            state and exact body with <code>POST /api/v2/events/list</code>. The dashboard&apos;s Callbacks
            page sends a signed test callback,{" "}
            <code>{'{"type":"test","status":"test","message":"…","sent_at":"<ISO 8601>"}'}</code> with{" "}
            <code>X-Kassa-Event: test</code>, and retries everything pending at once.
          </p>
          <ScrollRegion label="Verifying a callback in JavaScript" className="mt-3 rounded bg-slate-900">
            <pre className="p-4 text-sm text-slate-100">
              <code>{CALLBACK_SAMPLE}</code>
            </pre>
          </ScrollRegion>
        </section>

        {operations.map(({ path, method, operation }) => (
          <section key={`${method} ${path}`} aria-labelledby={`${method}-${path}`} className="mt-10">
            <h2
              id={`${method}-${path}`}
              className="flex flex-wrap items-baseline gap-3 text-xl font-semibold"
            >
              <span className="rounded bg-slate-100 px-2 py-0.5 font-mono text-sm uppercase dark:bg-slate-800">
                {method}
              </span>
              <span className="break-all font-mono">/api/v2{path}</span>
            </h2>
            <p className="mt-1 font-medium">{operation.summary}</p>
            {operation.description && (
              <p className="mt-1 text-slate-700 dark:text-slate-300">
                <Prose text={operation.description} />
              </p>
            )}
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              {operation.security.length ? "Signed request." : "No authentication."}
              {operation.parameters?.some((p) => p.name === "Idempotency-Key") && (
                <>
                  {" "}
                  Accepts <a href="#idempotency">Idempotency-Key</a>.
                </>
              )}
            </p>
            {operation.requestBody && (
              <>
                <h3 className="mt-4 font-semibold">Request body</h3>
                <FieldList
                  schema={operation.requestBody.content["application/json"].schema}
                  components={document.components.schemas as Record<string, SchemaNode>}
                />
              </>
            )}
            <h3 className="mt-4 font-semibold">Responses</h3>
            <ul className="mt-1 text-sm">
              {Object.entries(operation.responses).map(([status, response]) => (
                <li key={status}>
                  <span className="font-mono">{status}</span> <Prose text={response.description} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </main>
    </>
  );
}
