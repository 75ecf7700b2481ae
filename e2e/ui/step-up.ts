import type { Page } from "@playwright/test";
import { expect } from "../fixtures";

/** The dashboard's one confirmation dialog (components/step-up/step-up-dialog.tsx). */
export const stepUpDialog = (page: Page) => page.getByRole("dialog", { name: "Confirm it is you" });

/**
 * Answers the confirmation dialog with the password, as a user would, once it opens; the change
 * that asked is then sent again by the page. Later changes in the same session within the window
 * do not ask.
 */
export async function confirmStepUp(page: Page, password: string): Promise<void> {
  const dialog = stepUpDialog(page);
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Your password").fill(password);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toBeHidden();
}
