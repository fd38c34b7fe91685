/**
 * Issue 24 L13: once an email is delivered outside the sandbox, its stored row (kept 30 days) holds
 * no usable link token: the recipient got the live link by SMTP, the row keeps the link with
 * `token=redacted`. In the sandbox the stored copy is the person's mailbox, so its links still work.
 * Real database, real SMTP server, the real flows that write the links.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeldPurchase } from "../../../prisma/factories/purchases";
import { createPerson } from "../../../prisma/factories";
import { db } from "../db";
import { copyEmailKey, purchaseOfCancelToken } from "../../purchases/purchase-emails";
import { shopperCaller, visitorCaller } from "../../testing/callers";
import { useProductionEnv } from "../../testing/production-env";
import { startSmtpCapture } from "../../testing/smtp-capture";
import { redactLinkTokens } from "./redact-links";
import { deliverDueEmails, redactsSentLinks, smtpTransport } from "./sender";

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(() => smtp.stop());

const tokenIn = (text: string) => /[?&]token=([^&"'\s<>)\]]+)/.exec(text)?.[1];

describe("link tokens in the outbox", () => {
  it("outside the sandbox: delivered by SMTP with the live link; the stored row keeps the link without its token", async () => {
    const { person } = await createPerson();
    await visitorCaller().shopperAuth.requestPasswordReset({ email: person.email });
    const { purchase } = await createHeldPurchase();
    useProductionEnv({ SMTP_URL: smtp.url });
    await deliverDueEmails({
      db: db(),
      now: new Date(Date.now() + 60_000),
      transport: smtpTransport(smtp.url),
      limit: 100,
    });

    const cases = [
      {
        to: person.email,
        row: await db().emailMessage.findFirstOrThrow({
          where: { to: person.email, template: "reset-password" },
        }),
      },
      {
        to: purchase.email,
        row: await db().emailMessage.findUniqueOrThrow({
          where: { dedupeKey: copyEmailKey(purchase.id) },
        }),
      },
    ];
    for (const { to, row } of cases) {
      const received = await smtp.waitFor(to);
      const token = tokenIn(received.text) ?? tokenIn(received.html);
      expect(token, `${row.template}: the recipient's link carries its token`).toBeTruthy();
      expect(decodeURIComponent(token!).length).toBeGreaterThan(40);
      expect(row.status).toBe("sent");
      const stored = JSON.stringify([row.props, row.html, row.text]);
      expect(stored, `${row.template}: the stored row`).not.toContain(token!);
      expect(stored).not.toContain(decodeURIComponent(token!));
      expect(row.text).toContain("token=redacted");
    }
  });

  it("the purchase's cancel token read from the row cancels nothing", async () => {
    const { purchase } = await createHeldPurchase();
    useProductionEnv({ SMTP_URL: smtp.url });
    await deliverDueEmails({
      db: db(),
      now: new Date(Date.now() + 60_000),
      transport: smtpTransport(smtp.url),
      limit: 100,
    });
    const row = await db().emailMessage.findUniqueOrThrow({
      where: { dedupeKey: copyEmailKey(purchase.id) },
    });
    const storedToken = tokenIn((row.props as { cancelUrl: string }).cancelUrl);
    expect(storedToken).toBe("redacted");
    expect(purchaseOfCancelToken(storedToken!, new Date())).toBeUndefined();
  });

  it("in the sandbox the mailbox still shows the person a working link", async () => {
    expect(redactsSentLinks({ SERVICE_ENV: "sandbox" })).toBe(false);
    expect(redactsSentLinks({ SERVICE_ENV: "production" })).toBe(true);
    const { person } = await createPerson({ verified: true });
    await visitorCaller().shopperAuth.requestPasswordReset({ email: person.email });
    await deliverDueEmails({ db: db(), now: new Date(Date.now() + 60_000), limit: 100 });
    const [reset] = (await shopperCaller(person.id).mailbox.list({})).filter(
      (message) => message.subject?.includes("password") || message.subject?.includes("Reset"),
    );
    expect(reset).toBeDefined();
    const html = await shopperCaller(person.id).mailbox.html({ id: reset.id });
    expect(tokenIn(html)).not.toBe("redacted");
    expect(tokenIn(html)?.length).toBeGreaterThan(40);
  });

  it("redacts a token parameter in text, in HTML (&amp;) and a bare signed token", () => {
    const token = `${"e".repeat(40)}.${"s".repeat(43)}`;
    expect(redactLinkTokens(`https://x/reset-password?token=${token}`)).toBe(
      "https://x/reset-password?token=redacted",
    );
    expect(redactLinkTokens(`<a href="https://x/c?a=1&amp;token=${token}">`)).toBe(
      '<a href="https://x/c?a=1&amp;token=redacted">',
    );
    expect(redactLinkTokens(`[${token}]`)).toBe("[redacted]");
    expect(redactLinkTokens("Order SO-7K3M9QX2, total 94.92")).toBe(
      "Order SO-7K3M9QX2, total 94.92",
    );
  });
});
