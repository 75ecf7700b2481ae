"use client";

import { useEffect, useState } from "react";
import { formatClock } from "@/lib/checkout/present";

/**
 * Time left until `expiresAt`, by the server's clock: `serverTime` is the server's unix time when
 * the view was made, so a device whose clock is wrong still counts down correctly. Screen readers
 * hear it at sensible moments (each minute from 5 minutes, then 30 and 10 seconds), not every second.
 */
export function Countdown({
  expiresAt,
  serverTime,
  label,
}: {
  expiresAt: number;
  serverTime: number;
  label: string;
}) {
  const [offset] = useState(() => serverTime - Date.now() / 1000);
  const [left, setLeft] = useState(() => expiresAt - serverTime);
  useEffect(() => {
    const tick = () => setLeft(expiresAt - (Date.now() / 1000 + offset));
    tick();
    const timer = setInterval(tick, 1_000);
    return () => clearInterval(timer);
  }, [expiresAt, offset]);
  const seconds = Math.max(0, Math.floor(left));
  const isUrgent = seconds <= 5 * 60;
  const minutes = Math.ceil(seconds / 60);
  const announcement =
    seconds === 0
      ? "Time is up."
      : seconds <= 10
        ? "10 seconds left."
        : seconds <= 30
          ? "30 seconds left."
          : isUrgent
            ? `${minutes} ${minutes === 1 ? "minute" : "minutes"} left.`
            : "";
  return (
    <div
      className={`mt-4 rounded-md px-3 py-2 text-sm ${isUrgent ? "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200" : "bg-slate-100 dark:bg-slate-800"}`}
    >
      <span>{label} </span>
      <span className="font-mono font-semibold" data-testid="countdown">
        {formatClock(seconds)}
      </span>
      <span className="sr-only" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}
