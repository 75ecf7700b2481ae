import type { ReactNode } from "react";

/**
 * What a signed-out form becomes once it has nothing left to ask (a message sent, a password
 * changed) or cannot ask it (a broken link): a heading and its explanation. `isLive` announces it to
 * screen readers, as it replaces the form the user just sent.
 */
export function AuthNotice({
  title,
  isLive = true,
  children,
}: {
  title: string;
  isLive?: boolean;
  children: ReactNode;
}) {
  return (
    <section className="mt-6" aria-live={isLive ? "polite" : undefined}>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      {children}
    </section>
  );
}
