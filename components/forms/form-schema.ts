import type { FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";
import { withoutEmpty } from "./without-empty";

/**
 * A form's validation by the zod schema its endpoint validates with (lib/schemas), through
 * @hookform/resolvers' zodResolver. zod, the schemas and the resolver are ~45 KB gzipped, more than
 * a form page's own code, so they load right after the page shows (`preload`) and the first
 * validation awaits them if it comes sooner; they are not in the page's first-load JavaScript.
 */
export type FormSchema<Values extends FieldValues> = {
  preload: () => void;
  resolver: Resolver<Values>;
};

/**
 * `formSchema(() => import("@/lib/schemas/x").then((m) => m.schema))`, once per module. An empty
 * input means "absent", as the API reads it, unless `isEmptyMeaningful` (an empty callback URL
 * removes it).
 */
export function formSchema<Values extends FieldValues>(
  load: () => Promise<z.ZodType<unknown, Values>>,
  { isEmptyMeaningful = false }: { isEmptyMeaningful?: boolean } = {},
): FormSchema<Values> {
  let pending: Promise<Resolver<Values>> | undefined;
  const get = () => {
    pending ??= buildResolver(load, isEmptyMeaningful).catch((error: unknown) => {
      pending = undefined; // offline for a moment: the next validation tries again
      throw error;
    });
    return pending;
  };
  return {
    preload: () => void get().catch(() => {}),
    resolver: async (values, context, options) => {
      let resolve: Resolver<Values>;
      try {
        resolve = await get();
      } catch {
        return { values, errors: {} }; // the server validates the same rules
      }
      return resolve(values, context, options);
    },
  };
}

async function buildResolver<Values extends FieldValues>(
  load: () => Promise<z.ZodType<unknown, Values>>,
  isEmptyMeaningful: boolean,
): Promise<Resolver<Values>> {
  const [schema, { z }, { zodResolver }, { humanize }] = await Promise.all([
    load(),
    import("zod"),
    import("@hookform/resolvers/zod"),
    import("@/lib/schemas/messages"),
  ]);
  // HTML inputs give "" for "nothing entered": the API's "field absent", so the messages match its own.
  const resolve = zodResolver(
    z.preprocess((values: Values) => (isEmptyMeaningful ? values : withoutEmpty(values)), schema),
    undefined,
    // The values are submitted as typed (amounts as the text entered); the server parses them again.
    { raw: true },
  );
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    nameFields(result.errors, "body", humanize);
    return result;
  };
}

/** The schemas' messages say ":attribute" where the field's name goes, as lib/schemas/messages.ts fills it in for the API. */
function nameFields(node: unknown, key: string, humanize: (field: string) => string): void {
  if (typeof node !== "object" || node === null) return;
  if ("message" in node && typeof node.message === "string")
    node.message = node.message.replaceAll(":attribute", humanize(key));
  for (const [child, value] of Object.entries(node)) {
    if (child !== "ref" && child !== "message" && child !== "types") nameFields(value, child, humanize);
  }
}
