/** A plain-text message with its web addresses as links, so a sign-up or reset link can be followed. */
export function MailText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"]+)/g);
  return (
    <div className="mt-6 rounded-md border border-slate-200 p-4 font-mono text-sm whitespace-pre-wrap break-words dark:border-slate-700">
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
          <a key={i} href={part} className="text-brand-700 underline dark:text-slate-100">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </div>
  );
}
