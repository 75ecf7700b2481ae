"use client";

import { useId, useState } from "react";
import { useCopy } from "@/components/checkout/use-copy";
import { buttonClass, secondaryButtonClass } from "@/components/forms/field";

const FILE_NAME = "kassa-recovery-codes.txt";

/** The codes as the downloaded file and the clipboard get them: a line of why, then one code a line. */
function recoveryText(codes: string[]): string {
  return `Kassa recovery codes. Each works once, in place of an authenticator code at sign-in.\n\n${codes.join("\n")}\n`;
}

function download(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = FILE_NAME;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * Recovery codes are shown once: they stay on screen, with copy and download, until the merchant
 * says they are saved, so a stray click cannot lose the only way back into a lost-phone account.
 */
export function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  const text = recoveryText(codes);
  const { isCopied, copy } = useCopy(text);
  const [isConfirmed, setIsConfirmed] = useState(false);
  const confirmId = useId();
  return (
    <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <p role="alert" className="font-semibold">
        Keep these recovery codes somewhere safe. Each works once if you lose your phone. They are shown only
        now.
      </p>
      <ul aria-label="Recovery codes" className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <button type="button" className={secondaryButtonClass} onClick={copy}>
          Copy codes
        </button>
        <button type="button" className={secondaryButtonClass} onClick={() => download(text)}>
          Download .txt
        </button>
        <span role="status" className="text-sm">
          {isCopied ? "Copied to the clipboard" : ""}
        </span>
      </div>
      <div className="mt-3 flex items-center gap-2">
        <input
          id={confirmId}
          type="checkbox"
          checked={isConfirmed}
          onChange={(e) => setIsConfirmed(e.target.checked)}
          className="size-4"
        />
        <label htmlFor={confirmId} className="text-sm">
          I have saved my recovery codes
        </label>
      </div>
      <button type="button" disabled={!isConfirmed} onClick={onSaved} className={`mt-3 ${buttonClass}`}>
        Done
      </button>
    </div>
  );
}
