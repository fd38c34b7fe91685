/**
 * Issue 24, section 5, through the real service (npm start, Next and the front door): a signed-out
 * visit to the account pages, a 401 and a 404 leave no stack and no INTERNAL_SERVER_ERROR in the
 * service's output (e2e/serve.ts writes it to serverLogPath), so an operator's alerting stays quiet.
 */
import { readFileSync, statSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { serviceState } from "../fixtures/api-client";

const logSince = (offset: number) =>
  readFileSync(serviceState().serverLogPath, "utf8").slice(offset);

test("[LOGS] signed-out account pages, a 401 and a 404 log no fault", async ({ page, request }) => {
  const start = statSync(serviceState().serverLogPath).size;
  for (const path of [
    "/account",
    "/account/limits",
    "/account/watches",
    "/account/purchases",
    "/account/apps",
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  }
  expect((await request.get("/api/v1/me")).status()).toBe(401);
  expect((await request.get("/api/v1/no/such/thing")).status()).toBe(404);
  expect((await request.get("/api/trpc/account.getSpendingSettings?input=%7B%7D")).status()).toBe(
    401,
  );
  expect((await page.goto("/no-such-page"))?.status()).toBe(404);
  // Let the service flush what it wrote.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const logged = logSince(start);
  expect(logged).not.toContain("INTERNAL_SERVER_ERROR");
  expect(logged).not.toContain("TRPCError");
  expect(logged).not.toMatch(/^\s+at /m);
  // The service's own lines are JSON (server/platform/observability/log.ts): no fault logged.
  expect(logged).not.toContain('"err":');
  // A refusal is an ordinary request line, at info.
  expect(logged).toMatch(/"level":"info".*"status":401/);
});
