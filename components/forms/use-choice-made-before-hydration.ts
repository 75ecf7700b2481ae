"use client";

import { type RefObject, useEffect } from "react";

/**
 * For a radio group whose choice lives in React state (`checked={…}`): once the page has hydrated,
 * takes the choice the user made before. React leaves such a click checked on the page but not in
 * its state, so the payout page showed "Instant withdrawal" checked over the form of a withdrawal,
 * and would have sent one. `values` are the group's choices in the order of its radio buttons.
 */
export function useChoiceMadeBeforeHydration<T>(
  group: RefObject<HTMLElement | null>,
  values: readonly T[],
  choose: (value: T) => void,
): void {
  // Once, after the first render: later renders are React's own, and the page shows its state.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read the page once, as hydration left it
  useEffect(() => {
    const radios = [...(group.current?.querySelectorAll<HTMLInputElement>('input[type="radio"]') ?? [])];
    const checked = radios.findIndex((radio) => radio.checked);
    if (checked >= 0 && checked < values.length) choose(values[checked] as T);
  }, []);
}
