import "server-only";

/** A JSON Schema node as the OpenAPI document holds it (only what the reference page reads). */
export type SchemaNode = {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  description?: string;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
  items?: SchemaNode;
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  not?: unknown;
  maxLength?: number;
  format?: string;
};

export type FieldRow = { name: string; type: string; isRequired: boolean; description: string };

function resolve(node: SchemaNode, components: Record<string, SchemaNode>): SchemaNode {
  if (!node.$ref) return node;
  return resolve(components[node.$ref.split("/").pop() ?? ""] ?? {}, components);
}

function typeOf(node: SchemaNode, components: Record<string, SchemaNode>): string {
  const resolved = resolve(node, components);
  if (resolved.not !== undefined) return "(omit)";
  if (resolved.const !== undefined) return JSON.stringify(resolved.const);
  if (resolved.enum) return resolved.enum.map((v) => JSON.stringify(v)).join(" | ");
  const variants = resolved.anyOf ?? resolved.oneOf;
  if (variants) return [...new Set(variants.map((v) => typeOf(v, components)))].join(" | ");
  if (resolved.type === "array" && resolved.items) return `${typeOf(resolved.items, components)}[]`;
  return Array.isArray(resolved.type) ? resolved.type.join(" | ") : (resolved.type ?? "any");
}

/**
 * Flattens a request schema into the rows of a field table: `$ref`s resolved, the branches of
 * oneOf/allOf merged (a field is required if some branch requires it), nested objects dotted
 * (sender_data.first_name), each constant of a discriminator listed once.
 */
export function flattenFields(
  root: SchemaNode,
  components: Record<string, SchemaNode>,
  prefix = "",
): FieldRow[] {
  const rows = new Map<string, FieldRow>();
  const visit = (node: SchemaNode, path: string) => {
    const schema = resolve(node, components);
    for (const branch of [...(schema.allOf ?? []), ...(schema.oneOf ?? [])]) visit(branch, path);
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      const name = path ? `${path}.${key}` : key;
      const resolved = resolve(child, components);
      const isRequired = schema.required?.includes(key) ?? false;
      const existing = rows.get(name);
      const type = typeOf(child, components);
      if (existing) {
        existing.isRequired ||= isRequired;
        if (!existing.type.split(" | ").includes(type)) existing.type = `${existing.type} | ${type}`;
      } else {
        const notes = [
          resolved.description,
          resolved.maxLength ? `At most ${resolved.maxLength} characters.` : undefined,
        ];
        const description = notes
          .filter((note): note is string => Boolean(note))
          .map((note) => (note.endsWith(".") ? note : `${note}.`))
          .join(" ");
        rows.set(name, { name, type, isRequired, description });
      }
      const isNested = resolved.properties || resolved.oneOf?.some((b) => resolve(b, components).properties);
      if (isNested && !name.includes(".")) visit(resolved, name);
    }
  };
  visit(root, prefix);
  return [...rows.values()];
}
