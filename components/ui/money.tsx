import { type DisplayedMoney, exactNote, formatMoney } from "@/lib/format-money";

/**
 * An amount as the page shows it (lib/format-money); when the figure is rounded, the exact amount
 * is its title and a dotted underline says there is more to read. Renders on server and client alike.
 */
export function Money({
  amount,
  code,
  showExact = false,
}: {
  amount: string | bigint | null;
  code: string | null;
  /** A detail view a merchant reconciles against: the exact amount is written out too. */
  showExact?: boolean;
}) {
  if (amount === null || code === null) return null;
  const money = formatMoney(amount, code);
  if (showExact && money.isRounded) {
    return (
      <>
        {money.text} <span className="text-xs font-normal">(exactly {money.exact})</span>
      </>
    );
  }
  return <Shown money={money} />;
}

/** A figure already formatted (an amount, or a rate from formatRateText). */
export function Shown({ money }: { money: DisplayedMoney }) {
  const note = exactNote(money);
  if (!note) return <>{money.text}</>;
  return (
    <span title={note} className="cursor-help underline decoration-dotted underline-offset-2">
      {money.text}
    </span>
  );
}
