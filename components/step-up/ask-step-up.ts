/**
 * The bridge between dashboardFetch and the one confirmation dialog on the page (StepUpDialog):
 * a request refused with `confirmation_required` waits here until the user confirmed (true) or
 * closed the dialog (false). Requests refused at the same moment share one dialog.
 */
type Opener = () => void;

let opener: Opener | undefined;
let waiting: ((isConfirmed: boolean) => void)[] = [];

/** Asks the user to confirm; false at once when no dialog is on the page. */
export function askStepUp(): Promise<boolean> {
  if (!opener) return Promise.resolve(false);
  const open = opener;
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (waiting.length === 1) open();
  });
}

/** The dialog registers how to open itself; returns the unregistering. */
export function registerStepUpDialog(open: Opener): () => void {
  opener = open;
  return () => {
    if (opener === open) opener = undefined;
  };
}

/** The dialog's outcome, for every request waiting on it. */
export function settleStepUp(isConfirmed: boolean): void {
  const settled = waiting;
  waiting = [];
  for (const resolve of settled) resolve(isConfirmed);
}
