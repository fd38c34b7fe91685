/**
 * The API lifecycle on the running service (`npm start`, lean layer, real SMTP capture): the
 * changelog page lists every version, and an operator's `ops endpoint:deprecate` reaches the
 * running process within a second (headers, a brownout answering 410 retired in its window only,
 * the OpenAPI flag, the changelog notice, the email to the partner contact who called it), and
 * `endpoint:restore` takes it back.
 */
import { randomUUID } from "node:crypto";
import { expect, ops, test } from "../fixtures/api-client";
import { waitForEmail } from "../fixtures/checkout";

const versions = [
  "1.9.0",
  "1.8.0",
  "1.7.0",
  "1.6.0",
  "1.5.0",
  "1.4.0",
  "1.3.0",
  "1.2.1",
  "1.2.0",
  "1.1.0",
  "1.0.0",
  "0.3.0",
  "0.2.0",
  "0.1.0",
];
const replacement = "https://developers.example/changes/categories-v2";

test.describe("[LIFECYCLE] deprecation, brownout, sunset", () => {
  test("the changelog page lists every version of the change history, newest first", async ({
    page,
  }, testInfo) => {
    await page.goto("/");
    await page.getByRole("link", { name: /Changelog/ }).click();
    await expect(page).toHaveURL(/\/changelog$/);
    await expect(page.getByRole("heading", { name: "Changelog" })).toBeVisible();
    await expect(page.getByText(`The API is at version ${versions[0]}`)).toBeVisible();
    const headings = await page
      .locator("section[aria-labelledby=versions] article h3")
      .allInnerTexts();
    expect(headings.map((heading) => heading.split(/\s/)[0])).toEqual(versions);
    await expect(page.locator("#v1-2-1")).toContainText(
      "null accepted wherever a field is optional",
    );
    await testInfo.attach("changelog", {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
  });

  test.setTimeout(120_000);

  test("deprecate with a brownout, then restore: the running service follows each within a second and tells the caller's contact", async ({
    page,
    playwright,
    baseURL,
  }) => {
    const contact = `api-${randomUUID().slice(0, 8)}@partner.example`;
    const created = ops(
      "client:create",
      "--name",
      "Lifecycle partner",
      "--scopes",
      "catalog:read",
      "--contact",
      contact,
    );
    const anonymous = await playwright.request.newContext({ baseURL });
    const issued = await anonymous.post("/oauth/token", {
      form: {
        grant_type: "client_credentials",
        client_id: created.client_id,
        client_secret: created.client_secret,
      },
    });
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${(await issued.json()).access_token}` },
    });
    expect((await api.get("/api/v1/categories")).status()).toBe(200);
    // The service writes (client, operation, day) a few seconds after the first call of the day.
    await new Promise((resolve) => setTimeout(resolve, 6500));

    const sunset = new Date();
    sunset.setUTCMonth(sunset.getUTCMonth() + 7);
    const sunsetDay = sunset.toISOString().slice(0, 10);
    // The window opens after the CLI is done (it refuses a brownout that has begun) and is short.
    const start = new Date(Date.now() + 25_000);
    const end = new Date(start.getTime() + 5000);
    const deprecated = ops(
      "endpoint:deprecate",
      "GET /api/v1/categories",
      "--sunset",
      sunsetDay,
      "--replacement",
      replacement,
      "--brownout",
      `${start.toISOString()}/${end.toISOString()}`,
    );
    expect(deprecated.notified).toContain(contact);
    const link = `<${replacement}>; rel="deprecation", <${baseURL}/changelog#deprecate-get-api-v1-categories>; rel="sunset"`;

    // Before the window: 200 with the three headers.
    await expect
      .poll(async () => (await api.get("/api/v1/categories")).headers()["sunset"] ?? null, {
        timeout: 1500,
        intervals: [100],
      })
      .toBe(new Date(`${sunsetDay}T00:00:00Z`).toUTCString());
    const before = await api.get("/api/v1/categories");
    expect(before.status()).toBe(200);
    expect(before.headers()["deprecation"]).toBe(
      `@${Math.floor(new Date(deprecated.deprecated_at).getTime() / 1000)}`,
    );
    expect(before.headers()["link"]).toBe(link);

    // In the window: 410 retired with the Link; after it: 200 again. Each call counts toward the
    // client's 120 a minute (a 410 is answered after the rate limit, ADR 0084): poll gently.
    await expect
      .poll(async () => (await api.get("/api/v1/categories")).status(), {
        timeout: 35_000,
        intervals: [600],
      })
      .toBe(410);
    const during = await api.get("/api/v1/categories");
    expect((await during.json()).error.code).toBe("retired");
    expect(during.headers()["link"]).toBe(link);
    await expect
      .poll(async () => (await api.get("/api/v1/categories")).status(), {
        timeout: 10_000,
        intervals: [500],
      })
      .toBe(200);

    const document = await (await anonymous.get("/api/v1/openapi.json")).json();
    expect(document.paths["/categories"].get.deprecated).toBe(true);
    expect(document.paths["/categories"].get.description).toContain(`sunset on ${sunsetDay}`);

    await page.goto("/changelog#deprecate-get-api-v1-categories");
    const notice = page.locator("#deprecate-get-api-v1-categories");
    await expect(notice).toContainText("GET /api/v1/categories");
    await expect(notice).toContainText(replacement);

    const email = await waitForEmail(anonymous, contact, /GET \/api\/v1\/categories is deprecated/);
    expect(email.text).toContain(sunsetDay);
    expect(email.text).toContain("/changelog#deprecate-get-api-v1-categories");

    expect(ops("endpoint:restore", "GET /api/v1/categories")).toEqual({
      operation_id: "GET /api/v1/categories",
      restored: true,
    });
    await expect
      .poll(async () => (await api.get("/api/v1/categories")).headers()["deprecation"] ?? null, {
        timeout: 1500,
        intervals: [100],
      })
      .toBeNull();
    await page.goto("/changelog");
    await expect(page.locator("#deprecate-get-api-v1-categories")).toHaveCount(0);
    await api.dispose();
    await anonymous.dispose();
  });
});
