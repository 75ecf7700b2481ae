import { json } from "@/lib/api/respond";
import { buildOpenApiDocument } from "@/lib/openapi/document";

const document = buildOpenApiDocument();

export function GET(): Response {
  return json(document);
}
