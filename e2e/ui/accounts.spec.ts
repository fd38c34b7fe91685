/**
 * [ACCOUNTS] and [LINKING] in Debian chromium: sign-up with email confirmation through the sandbox
 * mailbox, the account pages, sign-in and consent from an app's authorization request, the
 * connected-apps page and Disconnect, password reset, and the developer portal. Screenshots of
 * each page land in the report.
 */
import * as oauth from "oauth4webapi";
import { expect, test, type Page } from "@playwright/test";
import { ops } from "../fixtures/api-client";
import { signIn, snap, unique } from "../fixtures/shoppers";

const redirectUri = "https://partner.example.com/callback";

/** Opens the newest email with this subject in the signed-in person's sandbox mailbox. */
const openEmail = async (page: Page, subject: string) => {
  await expect(async () => {
    await page.goto("/sandbox/mailbox");
    await expect(page.getByRole("link", { name: subject }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole("link", { name: subject }).first().click();
};

/** The link to `path` in the newest sent email to `address` with this subject, as the operator reads it (`ops mail:list`, `mail:show`). */
const operatorEmailLink = async (address: string, subject: string, path: string) => {
  let id: string | undefined;
  await expect(() => {
    const { messages } = ops("mail:list", "--to", address) as {
      messages: { id: string; subject: string | null; status: string }[];
    };
    id = messages.find((message) => message.subject === subject && message.status === "sent")?.id;
    expect(id).toBeTruthy();
  }).toPass({ timeout: 20_000 });
  const { text } = ops("mail:show", id!) as { text: string };
  return new RegExp(`https?://[^\\s"<>]+${path}\\?token=[^\\s"<>&]+`).exec(text)?.[0];
};

const createPerson = (verified = true) => {
  const email = `ui-${unique()}@example.ca`;
  const password = "sandbox password 1";
  ops(
    "person:create",
    "--email",
    email,
    "--password",
    password,
    "--name",
    "Mira",
    ...(verified ? ["--verified"] : []),
  );
  return { email, password };
};

const authorizationUrl = async (clientId: string, scope: string, redirect = redirectUri) => {
  const verifier = oauth.generateRandomCodeVerifier();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirect,
    scope,
    state: "ui-state",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  });
  return { path: `/oauth/authorize?${query}`, verifier };
};

/** The partner's callback is not reachable here: answer it in the browser and keep the URL. */
const catchCallback = async (page: Page) => {
  await page.route("https://partner.example.com/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<h1>Partner app</h1>" }),
  );
};

test.describe("[ACCOUNTS] shopper pages", () => {
  test("sign up, confirm the email from the mailbox, and fill in profile, sizes and address", async ({
    page,
  }, testInfo) => {
    const email = `signup-${unique()}@example.ca`;
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill("Nora Tremblay");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("must be at least 10 characters")).toBeVisible();
    await page.getByLabel("Password").fill("a long sandbox password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/account$/, { timeout: 15_000 });
    await expect(page.getByText("Until then you cannot approve apps")).toBeVisible();
    await snap(page, testInfo, "account-unconfirmed");

    await openEmail(page, "Confirm your email address");
    const confirmUrl = await page
      .getByRole("link", { name: "Confirm my email" })
      .getAttribute("href");
    await page.goto(confirmUrl!);
    await expect(page.getByRole("heading", { name: "Confirm your email address" })).toBeVisible();
    await snap(page, testInfo, "verify-email");
    await page.getByRole("button", { name: "Confirm my email" }).click();
    await expect(page.getByText("is confirmed")).toBeVisible();
    // Done: no button left to press again.
    await expect(page.getByRole("button", { name: "Confirm my email" })).toHaveCount(0);

    await page.goto("/account");
    await expect(page.getByText("Until then you cannot approve apps")).toHaveCount(0);
    await page.getByLabel("Sizes", { exact: true }).fill("M, 8, 32x34");
    await page.getByRole("button", { name: "Save sizes" }).click();
    await expect(page.getByText("Saved your sizes: M, 8, 32x34.")).toBeVisible();
    await snap(page, testInfo, "account-profile");

    await page.getByRole("link", { name: "Shipping address" }).click();
    await page.getByLabel("Full name").fill("Nora Tremblay");
    await page.getByLabel("Address", { exact: true }).fill("1 Rue Saint-Paul");
    await page.getByLabel("City").fill("Montréal");
    await page.getByLabel("Province or territory").selectOption("QC");
    await page.getByLabel("Postal code").fill("M5V 3L9");
    await page.getByRole("button", { name: "Save address" }).click();
    await expect(page.getByText("is not a postal code of Quebec")).toBeVisible();
    await page.getByLabel("Postal code").fill("h2y1c6");
    await page.getByRole("button", { name: "Save address" }).click();
    await expect(
      page.getByText("Saved. Parcels go to 1 Rue Saint-Paul, Montréal QC H2Y 1C6."),
    ).toBeVisible();
    await snap(page, testInfo, "account-address");
  });

  test("forgot password: the emailed link sets a new password and the old one stops working", async ({
    page,
  }, testInfo) => {
    const { email, password } = createPerson();
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByText(`If ${email} has an account`)).toBeVisible();
    // Signed out (that is the point), so the mailbox page is closed to them: the operator reads the email.
    await page.goto((await operatorEmailLink(email, "Reset your password", "/reset-password"))!);
    await page.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
    await snap(page, testInfo, "reset-password");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page.getByText("Your password was changed")).toBeVisible();
    await page.goto("/sign-in");
    await signIn(page, email, password);
    await expect(page.getByText("That email and password do not match an account.")).toBeVisible();
    await signIn(page, email, "a brand new passphrase");
    await expect(page).toHaveURL(/\/account$/);
  });
});

test.describe("[LINKING] sign-in and consent in the browser", () => {
  test("a partner app: sign in, consent (no purchase checkbox), code exchange, then Disconnect stops its token", async ({
    page,
    request,
  }, testInfo) => {
    const { email, password } = createPerson();
    const client = ops(
      "client:create",
      "--name",
      "Closet Planner",
      "--scopes",
      "catalog:read profile:read address:read alerts:write",
      "--redirect-uri",
      redirectUri,
      "--linking",
    );
    const { path, verifier } = await authorizationUrl(
      client.client_id,
      "catalog:read profile:read address:read alerts:write",
    );
    await catchCallback(page);
    await page.goto(path);
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
    await expect(page.locator("input[type=email]")).toBeVisible();
    await expect(page.locator("input[type=password]")).toBeVisible();
    await snap(page, testInfo, "sign-in");
    await signIn(page, email, password);

    await expect(
      page.getByRole("heading", { name: "Closet Planner wants to connect to your account" }),
    ).toBeVisible();
    await expect(page.getByText("See your name, email address and saved sizes")).toBeVisible();
    await expect(page.getByText("you will return to partner.example.com")).toBeVisible();
    await expect(page.locator('input[value="purchase:write"]')).toHaveCount(0);
    const alerts = page.getByRole("checkbox", { name: /set price alerts/ });
    await expect(alerts).not.toBeChecked();
    await snap(page, testInfo, "consent-partner");
    await page.getByRole("button", { name: "Approve" }).click();

    await expect(page).toHaveURL(/^https:\/\/partner\.example\.com\/callback\?/);
    const callback = new URL(page.url());
    expect(callback.searchParams.get("state")).toBe("ui-state");
    const exchange = await request.post("/oauth/token", {
      form: {
        grant_type: "authorization_code",
        code: callback.searchParams.get("code")!,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id: client.client_id,
        client_secret: client.client_secret,
      },
    });
    const tokens = await exchange.json();
    expect(tokens.scope).toBe("catalog:read profile:read address:read");
    const me = await request.get("/api/v1/me", {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect((await me.json()).email).toBe(email);

    await page.goto("/account/apps");
    const app = page.getByRole("listitem", { name: "Closet Planner" });
    await expect(app.getByText("See your saved shipping address")).toBeVisible();
    await snap(page, testInfo, "connected-apps");
    await app.getByRole("button", { name: "Disconnect" }).click();
    await expect(page.getByText("No app is connected")).toBeVisible();
    expect(
      (
        await request.get("/api/v1/me", {
          headers: { Authorization: `Bearer ${tokens.access_token}` },
        })
      ).status(),
    ).toBe(401);
  });

  test("an assistant: purchase:write is an unticked checkbox the person ticks; Deny sends access_denied", async ({
    page,
    playwright,
    baseURL,
  }, testInfo) => {
    const { email, password } = createPerson();
    const anonymous = await playwright.request.newContext({ baseURL });
    const agent = await (
      await anonymous.post("/oauth/register/agent", {
        data: { client_name: "Style Assistant", redirect_uris: [redirectUri] },
      })
    ).json();
    await anonymous.dispose();
    await catchCallback(page);
    const first = await authorizationUrl(
      agent.client_id,
      "catalog:read profile:read purchase:write",
    );
    await page.goto(first.path);
    await signIn(page, email, password);
    const purchase = page.getByRole("checkbox", {
      name: /Let Style Assistant buy items for me with my saved card/,
    });
    await expect(purchase).not.toBeChecked();
    await expect(page.getByText("AI assistant")).toBeVisible();
    await snap(page, testInfo, "consent-assistant");
    await page.getByRole("button", { name: "Deny" }).click();
    await expect(page).toHaveURL(/error=access_denied/);

    const second = await authorizationUrl(
      agent.client_id,
      "catalog:read profile:read purchase:write",
    );
    await page.goto(second.path);
    await page.getByRole("checkbox", { name: /buy items for me/ }).check();
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/code=/);
    await page.goto("/account/apps");
    await expect(
      page.getByRole("listitem", { name: "Style Assistant" }).getByText("purchase:write"),
    ).toBeVisible();
  });

  test("the consent page names where the person returns, and warns only when that is their own computer (B2-23)", async ({
    page,
    playwright,
    baseURL,
  }) => {
    const { email, password } = createPerson();
    const loopback = "http://127.0.0.1:8765/callback";
    const anonymous = await playwright.request.newContext({ baseURL });
    const agent = await (
      await anonymous.post("/oauth/register/agent", {
        data: { client_name: "Desk Assistant", redirect_uris: [redirectUri, loopback] },
      })
    ).json();
    await anonymous.dispose();
    const warning = /This app runs on your own computer/;
    await page.goto((await authorizationUrl(agent.client_id, "catalog:read", loopback)).path);
    await signIn(page, email, password);
    await expect(page.getByText(warning)).toContainText("127.0.0.1:8765");
    await page.goto((await authorizationUrl(agent.client_id, "catalog:read")).path);
    await expect(
      page.getByRole("heading", { name: /Desk Assistant wants to connect/ }),
    ).toBeVisible();
    await expect(page.getByText("partner.example.com")).toBeVisible();
    await expect(page.getByText(warning)).toHaveCount(0);
  });

  test("an unconfirmed person is asked to confirm their email instead of approving", async ({
    page,
  }, testInfo) => {
    const { email, password } = createPerson(false);
    const client = ops(
      "client:create",
      "--name",
      "Closet Planner",
      "--scopes",
      "profile:read",
      "--redirect-uri",
      redirectUri,
      "--linking",
    );
    await page.goto((await authorizationUrl(client.client_id, "profile:read")).path);
    await signIn(page, email, password);
    await expect(
      page.getByRole("heading", { name: "Confirm your email to connect Closet Planner" }),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await snap(page, testInfo, "consent-unconfirmed");
  });
});

test.describe("[DEVELOPERS] partner portal", () => {
  test("apply, see the secret once, rotate it, and edit redirect URIs", async ({
    page,
    request,
  }, testInfo) => {
    const { email, password } = createPerson();
    await page.goto("/developers");
    await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/developers$/);
    await page.getByLabel("Application name").fill("Wardrobe Sync");
    await page
      .getByLabel("Redirect URIs")
      .fill("https://wardrobe.example/callback\nhttp://localhost:5173/callback");
    await page.getByText("Account linking", { exact: true }).click();
    await page.getByRole("button", { name: "Apply" }).click();
    const card = page.getByRole("region", { name: "Wardrobe Sync" });
    await expect(card.getByText("approved")).toBeVisible();
    const clientId = (await card.getByTestId("client-id").textContent())!;
    await card.getByRole("button", { name: "Create client secret" }).click();
    const secret = (await card.getByTestId("revealed-secret").textContent())!;
    expect(secret).toMatch(/^sec_test_/);
    await snap(page, testInfo, "developer-portal-secret");
    const issued = await request.post("/oauth/token", {
      form: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
    });
    expect(issued.status()).toBe(200);

    await page.reload();
    await expect(page.getByText(secret)).toHaveCount(0);
    await card.getByRole("button", { name: "Rotate secret" }).click();
    await expect(
      card.getByText("The previous secret and its tokens stopped working"),
    ).toBeVisible();
    expect(
      (
        await request.post("/oauth/token", {
          form: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
        })
      ).status(),
    ).toBe(401);

    await card.getByLabel("Redirect URIs").fill("http://wardrobe.example/callback");
    await card.getByRole("button", { name: "Save redirect URIs" }).click();
    await expect(card.getByText("must use https")).toBeVisible();
    await snap(page, testInfo, "developer-portal");
  });
});
