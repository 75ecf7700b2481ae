/** A payout's receiver as a person reads it: a name, a company, or the merchant's own wallet. */
export function describeReceiver(type: unknown, data: unknown): string {
  const d = (data ?? {}) as Record<string, string | undefined>;
  if (type === "self") return "Your own wallet";
  if (type === "legal") return d.legal_name || "A company (no name given)";
  return [d.first_name, d.last_name].filter(Boolean).join(" ") || "A person (no name given)";
}
