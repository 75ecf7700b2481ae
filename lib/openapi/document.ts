import "server-only";

import { z } from "zod";
import type { Endpoint } from "@/lib/api/endpoint";
import { exactNumber } from "@/lib/schemas/amount";
import { exactInteger } from "@/lib/schemas/fields";
import { FOREIGN_ID_TAKEN } from "@/lib/transactions/foreign-id-taken";
import { ENDPOINTS } from "./endpoints";

type JsonSchema = Record<string, unknown>;

const validationError = {
  type: "object",
  properties: {
    errors: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "Field name (nested fields dotted, e.g. sender_data.first_name) to message.",
    },
  },
  required: ["errors"],
  example: { errors: FOREIGN_ID_TAKEN },
};

const codedError = (codes: string[]) => ({
  type: "object",
  properties: { error: { type: "string" }, code: { type: "string", enum: codes } },
  required: ["error", "code"],
});

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Up to 255 characters (a UUID is a good choice). The first answer with this key (a success or a 4xx other " +
    "than validation) is stored for 24 hours; a retry with the same path and body gets it back, status and body " +
    "byte for byte, with `Idempotent-Replayed: true`, and nothing runs twice. 5xx answers are not stored.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

/**
 * Converts a zod schema to JSON Schema 2020-12 (what OpenAPI 3.1 uses), hoisting named schemas
 * (`.meta({ id })`) into components so they are described once.
 */
function toSchema(
  schema: z.ZodType,
  io: "input" | "output",
  components: Record<string, JsonSchema>,
): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    // An amount's third form (lib/json's exact number) is a JSON number on the wire.
    override: (context) => {
      if (context.zodSchema === exactNumber) context.jsonSchema.type = "number";
      if (context.zodSchema === exactInteger) context.jsonSchema.type = "integer";
    },
  }) as JsonSchema;
  const { $schema: _ignored, $defs, ...rest } = generated;
  const rewrite = (value: JsonSchema) =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    components[name] = rewrite(definition);
  }
  return rewrite(rest);
}

function operation(endpoint: Endpoint, components: Record<string, JsonSchema>) {
  const success = endpoint.isText
    ? { "text/plain": { schema: { type: "string", const: "OK" } } }
    : {
        "application/json": {
          schema: endpoint.isUnwrapped
            ? toSchema(endpoint.response, "input", components)
            : {
                type: "object",
                properties: { data: toSchema(endpoint.response, "input", components) },
                required: ["data"],
              },
        },
      };
  const responses: Record<string, unknown> = {
    [endpoint.successStatus]: { description: "Success", content: success },
  };
  if (endpoint.isSigned) {
    responses["400"] = {
      description:
        "Validation failed, or the body is not a JSON object (`bad_content_format`: malformed JSON, invalid UTF-8, " +
        "duplicate keys, NUL or a lone surrogate in a string).",
      content: {
        "application/json": { schema: { oneOf: [validationError, codedError(["bad_content_format"])] } },
      },
    };
    responses["403"] = {
      description: "Missing or bad authentication headers.",
      content: {
        "application/json": {
          schema: codedError([
            "required_header_key",
            "bad_header_key",
            "required_header_signature",
            "bad_header_signature",
          ]),
        },
      },
    };
    responses["413"] = {
      description: "The body is larger than the cap (64 KiB by default).",
      content: { "application/json": { schema: codedError(["payload_too_large"]) } },
    };
  }
  if (endpoint.isIdempotent) {
    responses["400"] = {
      description:
        "As above, or (`idempotency_key_invalid`) an Idempotency-Key that is empty, over 255 characters or holds control characters.",
      content: {
        "application/json": {
          schema: { oneOf: [validationError, codedError(["bad_content_format", "idempotency_key_invalid"])] },
        },
      },
    };
    responses["409"] = {
      description:
        "The Idempotency-Key was first used with another path or body (`idempotency_key_reused`), or the first request " +
        "with it is still running (`idempotency_key_in_flight`, with Retry-After).",
      content: {
        "application/json": { schema: codedError(["idempotency_key_reused", "idempotency_key_in_flight"]) },
      },
    };
  }
  return {
    operationId: endpoint.path.replace(/^\//, "").replace(/[^a-zA-Z0-9]+/g, "_"),
    summary: endpoint.summary,
    description: endpoint.description,
    tags: [endpoint.tag],
    ...(endpoint.isIdempotent && { parameters: [idempotencyKeyParameter] }),
    security: endpoint.isSigned ? [{ processingKey: [], processingSignature: [] }] : [],
    ...(endpoint.request && {
      requestBody: {
        required: false,
        content: { "application/json": { schema: toSchema(endpoint.request, "input", components) } },
      },
    }),
    responses,
  };
}

export function buildOpenApiDocument(serverUrl = "/api/v2") {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of ENDPOINTS) {
    paths[endpoint.path] ??= {};
    paths[endpoint.path]![endpoint.method.toLowerCase()] = operation(endpoint, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Kassa merchant API",
      version: "2",
      description:
        "Wire-compatible with the public crypto processing API v2: point an existing client at this base URL. " +
        "Every request except /ping is signed: `X-Processing-Key` carries the API key and " +
        "`X-Processing-Signature` the hex HMAC-SHA512 of the exact request body bytes, keyed with the API secret " +
        "(an empty body is signed as the empty string). Amounts are accepted as JSON numbers or decimal strings, " +
        "read by their exact value whatever the spelling (`1e-05` is 0.00001, never rounded), and returned as " +
        "strings with exactly 8 fraction digits. A body with a lone UTF-16 surrogate escape (`\\ud800`) is " +
        "refused as `bad_content_format`.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        processingKey: { type: "apiKey", in: "header", name: "X-Processing-Key" },
        processingSignature: {
          type: "apiKey",
          in: "header",
          name: "X-Processing-Signature",
          description: "hex(HMAC-SHA512(secret, raw request body))",
        },
      },
    },
  };
}
