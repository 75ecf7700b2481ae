import { expect, test } from "@playwright/test";
import { expectAccessible } from "./page-checks";

/** The accessibility check itself: it must fail on a page with a serious finding, or it proves nothing. */
test("the accessibility check fails on an unlabelled button and an image without text, and passes once they have names", async ({
  page,
}) => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head>
    <body><main><h1>Pay</h1><button id="b"></button><img id="i" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>`);
  const failure = await expectAccessible(page).then(
    () => null,
    (error: Error) => error.message,
  );
  expect(failure).toContain("button-name");
  expect(failure).toContain("image-alt");

  await page.evaluate(() => {
    document.getElementById("b")!.textContent = "Pay now";
    document.getElementById("i")!.setAttribute("alt", "");
  });
  await expectAccessible(page);
});
