/** HTML inputs give "" for "nothing entered": the API's "field absent". */
export function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value) || value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== "" && v !== undefined)
      .map(([k, v]) => [k, withoutEmpty(v)]),
  );
}
