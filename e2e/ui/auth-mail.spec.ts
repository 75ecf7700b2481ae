import { mkdirSync } from "node:fs";
import { type Page, request as playwrightRequest } from "@playwright/test";
import { quiet } from "../../playwright.config";
import { linkToken, mailText } from "../../tests/support/mail-text";
import { type Mail, startSmtpServer } from "../../tests/support/smtp";
import { waitUntil } from "../../tests/support/wait";
import { createMerchant, expect, signedClient, test } from "../fixtures";
import { watchCsp } from "./csp-guard";
import { dashboardNav, navLink } from "./dashboard-nav";
import { capture, expectAccessible } from "./page-checks";
import { confirmStepUp } from "./step-up";
import { checkBothWidths, PHONE } from "./widths";

/**
 * Sign-up and password reset the way a merchant goes through them: the form, the e-mail (over real
 * SMTP, from the `quiet` server, whose SMTP_URL points here), the link. One SMTP listener on a fixed
 * port, so the tests of this file run one after another.
 */
test.describe.configure({ mode: "serial" });

const baseURL = quiet.baseURL;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

test.beforeAll(async () => {
  smtp = await startSmtpServer({ port: quiet.smtpPort });
});
test.afterAll(async () => {
  await smtp.close();
});

/** The next message to `address` whose subject is `subject` (the job queue sends it shortly after the answer). */
function mailTo(address: string, subject: string): Promise<Mail> {
  return waitUntil(
    () => smtp.received.find((mail) => mail.to === address && mailText(mail).includes(`Subject: ${subject}`)),
    { what: `"${subject}" reaches ${address}`, timeoutMs: 20_000 },
  );
}

test("sign-up by e-mail link, onboarding and a first API key that works, each page at 375 and 1280 px", async ({
  page,
}, testInfo) => {
  // The finish and onboarding pages are reached only through the link: held to the pages' policy here.
  const csp = await watchCsp(page);
  await page.setViewportSize(PHONE);
  const email = `signup-${Date.now()}@example.com`;
  await page.goto(`${baseURL}/signup`);
  await page.getByLabel("Business name").fill("Corner Bakery");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("The password must be at least 10 characters.")).toBeVisible();
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await checkBothWidths(page, testInfo, "signup-sent");

  const token = linkToken(await mailTo(email, "Finish creating your Kassa account"));
  await page.goto(`${baseURL}/signup/finish#token=${token}`);
  await expect(page.getByRole("heading", { name: "Your account is ready" })).toBeVisible();
  await checkBothWidths(page, testInfo, "signup-finish");
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Sign in and continue" }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
  await checkBothWidths(page, testInfo, "onboarding");
  await page.getByLabel("Name of your first API key").fill("Till");
  await page.getByRole("button", { name: "Finish and create the key" }).click();
  // The first key is confirmed like every later one.
  await confirmStepUp(page, "a long enough password");
  await expect(page.getByText("Copy the secret now: it will not be shown again.")).toBeVisible();
  const key = (await page.locator("output").nth(0).textContent())!.trim();
  const secret = (await page.locator("output").nth(1).textContent())!.trim();
  const api = await playwrightRequest.newContext({ baseURL });
  const client = signedClient(api, { merchantId: 0, apiKey: key, apiSecret: secret, email, password: "" });
  expect((await client.post("/accounts/list")).status()).toBe(200);

  // The link worked once.
  await page.goto(`${baseURL}/signup/finish#token=${token}`);
  await expect(page.getByRole("heading", { name: "The account was not created" })).toBeVisible();
  await checkBothWidths(page, testInfo, "signup-used");
  csp.expectNone();
});

test("signing up with a taken address looks the same, and its owner is told by e-mail", async ({ page }) => {
  const merchant = await createMerchant("Taken Shop", quiet.dataDir);
  await page.goto(`${baseURL}/signup`);
  await page.getByLabel("Business name").fill("Someone Else");
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByLabel("Password").fill("another long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  // This server has a mail server: nothing points at a log.
  await expect(page.getByText(/dev mailbox/)).toHaveCount(0);
  const mail = mailText(await mailTo(merchant.email, "You already have a Kassa account"));
  expect(mail).toContain(`${baseURL}/forgot-password`);
});

test("a sandbox without a mail server says where the sign-up and reset links went", async ({ page }) => {
  // The default e2e server has no SMTP_URL (playwright.config.ts): its messages go to its dev mailbox and log.
  await page.goto("/signup");
  await page.getByLabel("Business name").fill("Log Reader");
  await page.getByLabel("E-mail").fill(`log-reader-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await expect(page.getByText(/nothing was e-mailed: read the message in the dev mailbox/)).toBeVisible();
  await expect(page.getByRole("link", { name: "dev mailbox" })).toHaveAttribute("href", "/dev/mailbox");
  await expect(
    page.getByText(/printed, link included, in the log of the terminal running Kassa/),
  ).toBeVisible();
  await expectAccessible(page);
  await page.goto("/forgot-password");
  await page.getByLabel("E-mail").fill("someone@example.com");
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await expect(page.getByRole("link", { name: "dev mailbox" })).toBeVisible();
});

test("password reset by e-mail: a new password, once, each page at 375 and 1280 px", async ({
  page,
}, testInfo) => {
  const csp = await watchCsp(page);
  await page.setViewportSize(PHONE);
  const merchant = await createMerchant("Reset", quiet.dataDir);
  await page.goto(`${baseURL}/login`);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await checkBothWidths(page, testInfo, "forgot-password");
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await checkBothWidths(page, testInfo, "reset-sent");

  const link = /https?:\/\/\S+#token=[A-Za-z0-9_-]+/.exec(
    mailText(await mailTo(merchant.email, "Reset your Kassa password")),
  )![0];
  expect(link.startsWith(`${baseURL}/reset-password#token=`)).toBe(true);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  // The token left the address bar once the form held it.
  await expect(page).toHaveURL(`${baseURL}/reset-password`);
  await checkBothWidths(page, testInfo, "reset-form");
  await page.getByLabel("New password").fill("my new long password");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByRole("heading", { name: "Password changed" })).toBeVisible();
  await checkBothWidths(page, testInfo, "reset-done");

  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByLabel("Password").fill("my new long password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(link);
  await page.getByLabel("New password").fill("a third long password");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.locator("form").getByRole("alert")).toContainText("expired or was already used");
  await checkBothWidths(page, testInfo, "reset-used");
  csp.expectNone();
});

test("a reset asked for an address without an account looks the same and sends nothing", async ({ page }) => {
  const email = `nobody-${Date.now()}@example.com`;
  await page.goto(`${baseURL}/forgot-password`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  // A registered address asked for right after it gets its mail; by then the unknown one would have had its own.
  const merchant = await createMerchant("Reset Witness", quiet.dataDir);
  await page.goto(`${baseURL}/forgot-password`);
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await mailTo(merchant.email, "Reset your Kassa password");
  expect(smtp.received.filter((mail) => mail.to === email)).toEqual([]);
});

for (const viewport of [
  { name: "phone", width: 375, height: 800 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`a bad invitation link says it does not work and names no team, at ${viewport.width}px`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto(`${baseURL}/join#token=${"x".repeat(43)}`);
    await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
    await expect(page.getByText(/^This invitation link does not work/)).toBeVisible();
    await expect(page.getByLabel("Password")).toHaveCount(0);
    await expectAccessible(page);
  });
}

async function signInAt(page: Page, email: string, password: string) {
  await page.goto(`${baseURL}/login`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The team of the invitation test: a name no page shows unless it names the team. */
const TEAM = "Lindqvist Team";

test("team: invite by e-mail, join from the link, a role-limited dashboard, a role change that ends the session, each page at 375 and 1280 px", async ({
  page,
  browser,
}, testInfo) => {
  // Two people, three sessions and a dozen pages (about a minute on a busy two-core machine).
  test.slow();
  await page.setViewportSize(PHONE);
  const owner = await createMerchant(TEAM, quiet.dataDir);
  await signInAt(page, owner.email, owner.password);
  await (await navLink(page, "Team")).click();
  await expect(page.getByRole("heading", { name: "Team", exact: true })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: `${owner.email} (you)` })).toContainText("owner");
  await expectAccessible(page);

  const email = `dev-${Date.now()}@example.com`;
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Role").selectOption("developer");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await confirmStepUp(page, owner.password);
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  const pending = page.getByRole("listitem").filter({ hasText: email });
  await expect(pending).toContainText("developer");
  await expect(pending).toContainText(`invited by ${owner.email}`);
  await checkBothWidths(page, testInfo, "team-invited");

  const mail = mailText(await mailTo(email, `You are invited to ${TEAM} on Kassa`));
  const link = /https?:\/\/\S+#token=[A-Za-z0-9_-]+/.exec(mail)![0];
  expect(link.startsWith(`${baseURL}/join#token=`)).toBe(true);

  // A browser of their own (axe needs a page of a context made with newContext).
  const inviteeContext = await browser.newContext({ viewport: PHONE });
  const invitee = await inviteeContext.newPage();
  await invitee.goto(link);
  // The page names the team, the role (in words) and the address invited.
  await expect(invitee.getByRole("heading", { name: `Join ${TEAM}` })).toBeVisible();
  await expect(invitee.getByRole("main")).toContainText(
    `You are invited to ${TEAM} on Kassa as developer (API keys, callbacks, invoices, the sandbox), with the address ${email}.`,
  );
  // The page takes the token out of the address bar once it has read it.
  await expect(invitee).toHaveURL(`${baseURL}/join`);
  await checkBothWidths(invitee, testInfo, "team-join");
  await invitee.getByLabel("Password").fill("the developer's password");
  await invitee.getByRole("button", { name: "Join" }).click();
  await expect(invitee.getByRole("heading", { name: "You joined the team" })).toBeVisible();

  // The same link again, opened afresh (its token is in the fragment, so a goto from /join would not
  // load the page): used up, and it says so without naming the team.
  await invitee.goto("about:blank");
  await invitee.goto(link);
  await expect(invitee.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  await expect(invitee.getByText("This invitation was already used.")).toBeVisible();
  await expect(invitee.getByRole("main")).not.toContainText(TEAM);
  await checkBothWidths(invitee, testInfo, "team-join-used");

  // The developer's dashboard offers keys and callbacks, and no payouts, approvals, team or audit trail.
  await signInAt(invitee, email, "the developer's password");
  const nav = dashboardNav(invitee);
  await expect(await navLink(invitee, "API keys")).toBeVisible();
  await expect(await navLink(invitee, "Callbacks")).toBeVisible();
  for (const hidden of ["New payout", "Approvals", "Team", "Audit trail"])
    await expect(nav.getByRole("link", { name: hidden, includeHidden: true })).toHaveCount(0);
  await checkBothWidths(invitee, testInfo, "team-developer-nav");
  await invitee.goto(`${baseURL}/dashboard/payouts/new`);
  await expect(invitee.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(invitee.getByText("Your role (developer) does not allow this.")).toBeVisible();
  await checkBothWidths(invitee, testInfo, "team-not-allowed");
  const refused = await invitee.request.post(`${baseURL}/api/dashboard/withdrawals`, {
    headers: { origin: baseURL },
    data: {},
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({
    error: "Your role (developer) does not allow this. Ask an owner or an admin of your team.",
    code: "forbidden",
  });

  // API keys: the developer creates keys, but none that moves money; each key names its scope and creator.
  await invitee.goto(`${baseURL}/dashboard/keys`);
  await expect(invitee.getByText("Keys you create cannot move money")).toBeVisible();
  await expect(invitee.getByLabel("May move money (withdrawals, exchanges)")).toHaveCount(0);
  const newKey = invitee.getByRole("form", { name: "New API key" });
  await newKey.getByLabel("Name for the new key").fill("Developer's key");
  await newKey.getByRole("button", { name: "Create key" }).click();
  await confirmStepUp(invitee, "the developer's password");
  const devKey = invitee.getByRole("listitem").filter({ hasText: "Developer's key" });
  await expect(devKey).toContainText("no withdrawals or exchanges");
  await expect(devKey).toContainText(`by ${email}`);
  const ownerKey = invitee.getByRole("listitem").filter({ hasText: "Default key" });
  await expect(ownerKey).toContainText("moves money");
  await expect(ownerKey).toContainText(`by ${owner.email}`);
  await expect(ownerKey).toContainText(
    "This key moves money: only a member who may create payouts can roll it.",
  );
  await expect(ownerKey.getByRole("button", { name: "Roll key" })).toHaveCount(0);
  await expect(devKey.getByRole("button", { name: "Roll key" })).toBeVisible();
  await checkBothWidths(invitee, testInfo, "team-developer-keys");
  const moneyKey = await invitee.request.post(`${baseURL}/api/dashboard/api-keys`, {
    headers: { origin: baseURL },
    data: { label: "sneaky", can_move_money: true },
  });
  expect(moneyKey.status()).toBe(403);

  // The owner makes them a viewer: their session ends at once.
  await page.reload();
  const member = page.getByRole("listitem").filter({ hasText: email });
  await expect(member).toContainText("developer");
  await member.getByRole("button", { name: `Manage ${email}` }).click();
  // The owner's confirmation of the invitation still stands (its 5-minute window).
  await member.getByLabel("Role").selectOption("viewer");
  await member.getByRole("button", { name: "Save role" }).click();
  await expect(member).toContainText(`${email} is now viewer. Their sessions ended.`);
  await checkBothWidths(page, testInfo, "team-role-changed");
  await invitee.goto(`${baseURL}/dashboard`);
  await expect(invitee).toHaveURL(/\/login/);
  await inviteeContext.close();
});

test("a viewer's dashboard offers only the pages a viewer may open, each readable at 375 and 1280 px", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(150_000); // 5 pages × 2 widths, each scanned by axe and photographed
  const owner = await createMerchant("Viewer Tour", quiet.dataDir);
  await signInAt(page, owner.email, owner.password);
  const email = `viewer-${Date.now()}@example.com`;
  // The owner confirms first, as the dashboard's dialog does: an invitation is a sensitive change.
  const confirmed = await page.request.post(`${baseURL}/api/dashboard/step-up`, {
    headers: { origin: baseURL },
    data: { password: owner.password },
  });
  expect(confirmed.status()).toBe(200);
  const invited = await page.request.post(`${baseURL}/api/dashboard/team/invitations`, {
    headers: { origin: baseURL },
    data: { email, role: "viewer" },
  });
  expect(invited.status()).toBe(201);
  const link = /https?:\/\/\S+#token=[A-Za-z0-9_-]+/.exec(
    mailText(await mailTo(email, "You are invited to Viewer Tour on Kassa")),
  )![0];
  const context = await browser.newContext();
  const viewer = await context.newPage();
  await viewer.goto(link);
  await viewer.getByLabel("Password").fill("the viewer's password");
  await viewer.getByRole("button", { name: "Join" }).click();
  await expect(viewer.getByRole("heading", { name: "You joined the team" })).toBeVisible();
  await signInAt(viewer, email, "the viewer's password");

  // Reading pages and their own account only (docs/team-and-roles.md): no menu of one is left.
  const pages = ["Overview", "Transactions", "Invoices", "Payment links", "Settings"];
  const nav = dashboardNav(viewer);
  expect(await nav.getByRole("link", { includeHidden: true }).allTextContents()).toEqual(pages);
  await expect(nav.getByRole("button", { name: /Developers|Administration/ })).toHaveCount(0);
  // The first-run checklist names the steps a viewer cannot take instead of linking to "Not allowed".
  const checklist = viewer.getByRole("region", { name: "Getting started" });
  await expect(checklist.getByRole("link")).toHaveCount(0);
  await expect(checklist).toContainText("Set your callback URL (your role, viewer, cannot do this)");
  // Each step's mark sits beside its words, not on a line of its own, even where they wrap (375 px).
  await viewer.setViewportSize({ width: 375, height: 800 });
  for (const step of await checklist.getByRole("listitem").all()) {
    const [mark, words] = await step.locator(":scope > *").all();
    expect(Math.abs((await mark!.boundingBox())!.y - (await words!.boundingBox())!.y)).toBeLessThan(8);
  }
  mkdirSync("/tmp/shots-ui", { recursive: true });
  for (const viewport of [
    { name: "phone", width: 375, height: 800 },
    { name: "desktop", width: 1280, height: 900 },
  ]) {
    await viewer.setViewportSize(viewport);
    for (const label of pages) {
      await (await navLink(viewer, label)).click();
      await expect(viewer.getByRole("heading", { level: 1, name: label })).toBeVisible();
      await expect(nav.getByRole("link", { name: label, includeHidden: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
      await viewer.waitForLoadState("networkidle");
      await expectAccessible(viewer);
      const overflow = await viewer.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${label} at ${viewport.width}px scrolls sideways`).toBeLessThanOrEqual(0);
      const body = await capture(viewer, {
        path: `/tmp/shots-ui/viewer-${label.toLowerCase()}-${viewport.name}.png`,
        fullPage: true,
      });
      await testInfo.attach(`viewer-${label}-${viewport.name}`, { body, contentType: "image/png" });
    }
  }
  await context.close();
});
