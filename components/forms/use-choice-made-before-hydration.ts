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

/**
 * The same for a group of checkboxes whose choices live in React state: once hydrated, takes the boxes
 * the user ticked or cleared before. `values` are the boxes' choices in the order of the group's boxes.
 */
export function useBoxesTickedBeforeHydration<T>(
  group: RefObject<HTMLElement | null>,
  values: readonly T[],
  setTicked: (ticked: T[]) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: read the page once, as hydration left it
  useEffect(() => {
    const boxes = [...(group.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]') ?? [])];
    if (boxes.length !== values.length) return;
    setTicked(values.filter((_, index) => boxes[index]!.checked));
  }, []);
}
