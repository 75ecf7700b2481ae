import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { flattenFields, type SchemaNode } from "@/lib/openapi/fields";

describe("OpenAPI document and reference tables", () => {
  const document = buildOpenApiDocument();
  const components = document.components.schemas as Record<string, SchemaNode>;

  it("describes every field of the invoice request, nested sender fields dotted", () => {
    const schema = (
      document.paths["/invoices/create"] as Record<
        string,
        { requestBody: { content: Record<string, { schema: SchemaNode }> } }
      >
    ).post!.requestBody.content["application/json"]!.schema;
    const rows = flattenFields(schema, components);
    const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
    for (const field of [
      "end_user_reference",
      "timer",
      "title",
      "foreign_id",
      "currency",
      "amount",
      "url_success",
      "url_failed",
      "email_user",
      "sender_type",
      "sender_data",
    ]) {
      expect(byName[field]?.isRequired, field).toBe(true);
    }
    for (const field of ["type", "description", "sender_currency"])
      expect(byName[field]?.isRequired, field).toBe(false);
    expect(byName.sender_type!.type).toBe('"natural" | "legal"');
    expect(byName["sender_data.first_name"]).toBeDefined();
    expect(byName["sender_data.country_of_registration"]).toBeDefined();
    expect(byName.title!.description).toBe("Shown to the customer. At most 50 characters.");
  });

  it("lists every endpoint with its success status", () => {
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/ping",
        "/invoices/create",
        "/invoices/{foreign_id}/cancel",
        "/addresses/take",
        "/sandbox/payments",
      ]),
    );
    const created = (
      document.paths["/invoices/create"] as Record<string, { responses: Record<string, unknown> }>
    ).post!;
    expect(Object.keys(created.responses)).toEqual(expect.arrayContaining(["201", "400", "403", "413"]));
  });
});
