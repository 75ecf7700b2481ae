import type { Metadata } from "next";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { SiteHeader } from "@/components/ui/site-header";
import { buildOpenApiDocument } from "@/lib/openapi/document";

export const metadata: Metadata = { title: "API reference" };

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  oneOf?: Schema[];
  items?: Schema;
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  example?: unknown;
};
type Operation = {
  summary: string;
  description?: string;
  security: unknown[];
  requestBody?: { content: { "application/json": { schema: Schema } } };
  responses: Record<string, { description: string }>;
};

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

function typeLabel(schema: Schema): string {
  if (schema.$ref) return schema.$ref.split("/").pop() ?? "object";
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.oneOf) return schema.oneOf.map(typeLabel).join(" | ");
  if (schema.type === "array" && schema.items) return `${typeLabel(schema.items)}[]`;
  return Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
}

function FieldTable({ schema }: { schema: Schema }) {
  const variants = schema.oneOf ?? [schema];
  const rows = new Map<string, { schema: Schema; isRequired: boolean }>();
  for (const variant of variants) {
    for (const [name, field] of Object.entries(variant.properties ?? {})) {
      if (!rows.has(name))
        rows.set(name, { schema: field, isRequired: variant.required?.includes(name) ?? false });
    }
  }
  if (rows.size === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No parameters.</p>;
  return (
    <ScrollRegion label="Request fields">
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-800">
            <th scope="col" className="py-1 pr-4">
              Field
            </th>
            <th scope="col" className="py-1 pr-4">
              Type
            </th>
            <th scope="col" className="py-1">
              Notes
            </th>
          </tr>
        </thead>
        <tbody>
          {[...rows].map(([name, { schema: field, isRequired }]) => (
            <tr key={name} className="border-b border-slate-100 align-top dark:border-slate-900">
              <td className="py-1 pr-4 font-mono">
                {name}
                {isRequired && <span className="sr-only"> (required)</span>}
                {isRequired && (
                  <span aria-hidden="true" className="text-red-700 dark:text-red-400">
                    *
                  </span>
                )}
              </td>
              <td className="py-1 pr-4 font-mono text-xs">{typeLabel(field)}</td>
              <td className="py-1 text-slate-700 dark:text-slate-300">{field.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
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
            empty string.
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
              403 <code>required_header_key</code>, <code>bad_header_key</code>,{" "}
              <code>required_header_signature</code>, <code>bad_header_signature</code>.
            </li>
            <li>404 for unknown paths and for objects you may not see; 413 for bodies over 64 KiB.</li>
          </ul>
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
              <span className="font-mono">/api/v2{path}</span>
            </h2>
            <p className="mt-1 font-medium">{operation.summary}</p>
            {operation.description && (
              <p className="mt-1 text-slate-700 dark:text-slate-300">{operation.description}</p>
            )}
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              {operation.security.length ? "Signed request." : "No authentication."}
            </p>
            {operation.requestBody && (
              <>
                <h3 className="mt-4 font-semibold">Request body</h3>
                <FieldTable schema={operation.requestBody.content["application/json"].schema} />
              </>
            )}
            <h3 className="mt-4 font-semibold">Responses</h3>
            <ul className="mt-1 text-sm">
              {Object.entries(operation.responses).map(([status, response]) => (
                <li key={status}>
                  <span className="font-mono">{status}</span> {response.description}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </main>
    </>
  );
}
