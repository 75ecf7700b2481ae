"use client";

import { useCopy } from "./use-copy";

/**
 * The QR code, which also copies on a tap: on a phone the customer cannot scan their own screen,
 * so the code copies what it encodes (the full payment URI, or the address where the network has
 * no URI scheme). The hint below says what a tap does and confirms it.
 */
export function QrCopy({ src, alt, value }: { src: string; alt: string; value: string }) {
  const { isCopied, copy } = useCopy(value);
  return (
    <figure className="flex flex-col items-center">
      <button type="button" onClick={copy} className="rounded-md" aria-describedby="qr-hint">
        {/* biome-ignore lint/performance/noImgElement: a server-drawn SVG, no optimisation to gain */}
        <img src={src} alt={alt} width={192} height={192} className="rounded-md bg-white p-1" />
      </button>
      <figcaption id="qr-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {isCopied ? "Copied" : "Tap the code to copy it"}
      </figcaption>
      <span className="sr-only" aria-live="polite">
        {isCopied ? "Payment details copied" : ""}
      </span>
    </figure>
  );
}
