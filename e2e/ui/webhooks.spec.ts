/**
 * [WEBHOOKS] The developer portal's webhook endpoints: register one for a real receiver on
 * loopback, see the signing secret once, send a test event, see the delivery (status, response
 * code, time), and replay it (same webhook-id), every request verified by the standardwebhooks
 * package's verifier in the receiver.
 */
import { expect, test } from "@playwright/test";
import { startReceiver } from "../../server/testing/webhook-receiver";
import { ops } from "../fixtures/api-client";
import { signIn, snap, unique } from "../fixtures/shoppers";

test.describe("[WEBHOOKS] developer portal", () => {
  test("register an endpoint, send a test event, see the delivery and replay it", async ({
    page,
  }, testInfo) => {
    const receiver = await startReceiver();
    try {
      const email = `hooks-${unique()}@example.ca`;
      const password = "sandbox password 1";
      ops(
        "person:create",
        "--email",
        email,
        "--password",
        password,
        "--name",
        "Mira",
        "--verified",
      );
      await page.goto("/sign-in?callbackUrl=/developers");
      await signIn(page, email, password);
      await expect(page).toHaveURL(/\/developers$/);
      await page.getByLabel("Application name").fill("Order Hooks");
      await page.getByRole("button", { name: "Apply" }).click();
      const card = page.getByRole("region", { name: "Order Hooks" });
      await expect(card.getByText("approved")).toBeVisible();

      await card.getByLabel("Endpoint URL").fill(receiver.url);
      await card.getByLabel("checkout.paid").check();
      await card.getByLabel("order.shipped").check();
      await card.getByRole("button", { name: "Add endpoint" }).click();
      const secret = (await card.getByTestId("revealed-secret").textContent())!;
      expect(secret).toMatch(/^whsec_/);
      receiver.setSecrets([secret]);

      const endpoint = card.getByTestId("webhook-endpoint");
      await expect(endpoint.getByText("checkout.paid, order.shipped")).toBeVisible();
      await endpoint.getByRole("button", { name: "Send test event" }).click();
      await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
      expect(receiver.received[0]).toMatchObject({
        verified: true,
        payload: { type: "webhook.test" },
      });

      await expect(async () => {
        await page.reload();
        await expect(
          card.getByTestId("webhook-delivery").first().getByText("delivered"),
        ).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      const row = card.getByTestId("webhook-delivery").first();
      await expect(row.getByText("200")).toBeVisible();
      await expect(row.getByText(receiver.received[0].id)).toBeVisible();
      await snap(page, testInfo, "developer-portal-webhooks");

      await row.getByRole("button", { name: "Replay" }).click();
      await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(2);
      expect(receiver.received[1]).toMatchObject({ id: receiver.received[0].id, verified: true });
      // Shown once: after the page reloaded, the secret is nowhere on it.
      await expect(page.getByText(secret)).toHaveCount(0);
    } finally {
      await receiver.close();
    }
  });
});
