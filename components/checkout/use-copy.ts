"use client";

import { useState } from "react";

/**
 * Copies a value to the clipboard on demand and says so for two seconds (the checkout's copy button
 * and its tappable QR code). A refused clipboard (no permission, no secure context) shows nothing.
 */
export function useCopy(value: string): { isCopied: boolean; copy: () => Promise<void> } {
  const [isCopied, setIsCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setIsCopied(true);
      setTimeout(() => setIsCopied(false), 2_000);
    } catch {
      setIsCopied(false);
    }
  };
  return { isCopied, copy };
}
