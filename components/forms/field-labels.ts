/**
 * The labels on screen of the dashboard's forms, by request field. Server and schema messages name
 * API fields ("The amount to field may only be used together with convert_to."); the forms say
 * them with these labels instead, from this one table per form.
 */
export type FieldLabels = Readonly<Record<string, string>>;

const party: FieldLabels = {
  sender_type: "Sender type",
  receiver_type: "Receiver type",
  first_name: "First name",
  last_name: "Last name",
  date_of_birth: "Date of birth",
  legal_name: "Legal name",
  country_of_registration: "Country of registration",
};

export const INVOICE_LABELS: FieldLabels = {
  ...party,
  title: "Title",
  description: "Description",
  amount: "Amount",
  currency: "Currency you receive",
  foreign_id: "Your order id",
  end_user_reference: "Customer reference",
  email_user: "Customer's e-mail",
  url_success: "Return address after payment",
  url_failed: "Return address if the payment fails",
  type: "Kind",
  sender_currency: "Customer pays in",
  timer: "Timer",
  sender_data: "Customer details",
};

export const PAYMENT_LINK_LABELS: FieldLabels = {
  title: "Title",
  description: "Description",
  currency: "Currency",
  amount: "Amount",
  min_amount: "Least amount",
  max_amount: "Largest amount",
  sender_types: "Who may pay",
  expires_at: "Stops taking payments at",
  max_uses: "Number of payments",
  url_success: "Return address after payment",
  url_failed: "Return address if the payment fails",
};

export const PAYOUT_LABELS: FieldLabels = {
  ...party,
  currency: "Pay from balance",
  sender_currency: "Currency to send",
  convert_to: "Convert to",
  amount: "Amount",
  amount_to: "Amount to send",
  sender_amount: "Amount",
  address: "Destination address",
  tag: "Tag",
  foreign_id: "Your payout id",
  end_user_reference: "Customer reference",
  refund_of: "Refund of invoice",
  sender_data: "Sender details",
  receiver_data: "Receiver details",
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `message` with the fields it names said as their labels, in quotes: the ":attribute" slot the
 * schemas fill with a field's name ("The foreign id field…", "The selected currency…"), and any
 * API name with an underscore elsewhere (convert_to, amount_to), which no sentence uses otherwise.
 */
export function relabel(message: string, labels: FieldLabels): string {
  const byName = new Map<string, string>();
  for (const [key, label] of Object.entries(labels)) {
    byName.set(key, label);
    byName.set(key.replace(/_/g, " "), label);
  }
  const names = [...byName.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const attribute = new RegExp(
    `^The (selected )?(${names.join("|")})(?= (field|must|may|format|has|is|and)\\b)`,
  );
  const underscored = names.filter((name) => name.includes("_"));
  const apiName = new RegExp(`\\b(${underscored.join("|")})\\b`, "g");
  return message
    .replace(
      attribute,
      (_, selected: string | undefined, name: string) => `The ${selected ?? ""}“${byName.get(name)}”`,
    )
    .replace(apiName, (name) => `“${byName.get(name)}”`);
}

/** relabel() over every message of a react-hook-form errors tree. */
export function relabelErrors(node: unknown, labels: FieldLabels): void {
  if (typeof node !== "object" || node === null) return;
  if ("message" in node && typeof node.message === "string") node.message = relabel(node.message, labels);
  for (const [key, value] of Object.entries(node)) {
    if (key !== "ref" && key !== "message" && key !== "types") relabelErrors(value, labels);
  }
}
