/** What each column of the file holds, for a merchant filling the template. */
const COLUMNS: [string, string][] = [
  ["reference", "Your unique id for the payout (required). A reference used before is refused."],
  ["currency", "The balance it is paid from, such as BTC, or EUR to convert (required)."],
  ["amount", "The amount taken from that balance, before fees. Or leave it empty and fill amount_to."],
  ["amount_to", "The amount to arrive, in convert_to (only with convert_to)."],
  ["convert_to", "The crypto currency to send, when currency is another one (optional)."],
  ["address", "The receiver's address on that currency's network (required)."],
  ["tag", "The destination tag or memo, for networks that use one."],
  ["receiver_type", "natural (a person), legal (a company) or self (your own wallet) (required)."],
  ["receiver_first_name, receiver_last_name, receiver_date_of_birth", "For a person: names and YYYY-MM-DD."],
  [
    "receiver_legal_name, receiver_country_of_registration",
    "For a company: its name and 3-letter country code.",
  ],
  ["receiver_email", "Optional, for either."],
  ["end_user_reference", "Your id of the person paid (optional; the reference otherwise)."],
];

export function ColumnGuide() {
  return (
    <details className="mt-3 max-w-3xl rounded-md border border-slate-200 p-3 text-sm dark:border-slate-800">
      <summary className="cursor-pointer font-medium">What goes in each column</summary>
      <dl className="mt-2 space-y-2">
        {COLUMNS.map(([name, meaning]) => (
          <div key={name}>
            <dt className="break-words font-mono">{name}</dt>
            <dd className="text-slate-700 dark:text-slate-300">{meaning}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2">
        Save the file as CSV in UTF-8, with commas or semicolons between cells (with semicolons, an amount may
        use a comma as its decimal mark: 12,50). Type values, not formulas: a cell starting with = + - or @ is
        refused.
      </p>
    </details>
  );
}
