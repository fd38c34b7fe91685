/**
 * SMTP down (nothing listens at SMTP_URL's port): a send fails at once, the email stays in the
 * outbox with its retry time; when an SMTP server comes back at that address the next due pass
 * delivers it, once. (A server that accepts and never answers, and timed transitions not waiting on
 * email, are in server/edges/jobs/sweep.integration.test.ts.)
 */
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../db";
import { startSmtpCapture } from "../../testing/smtp-capture";
import { enqueueEmail } from "./outbox";
import { deliverDueEmails, retryDelayMs, smtpTransport } from "./sender";

/** A port nothing listens on: bound once, then released. */
const freePort = async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

const stops: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(stops.map((stop) => stop())));

describe("SMTP down, then back", () => {
  it("the email waits in the outbox while nothing listens, and goes once when the server returns", async () => {
    const port = await freePort();
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
    await enqueueEmail(db(), {
      to: "outage@example.ca",
      template: "verify-email",
      props: { name: "Ana", confirmUrl: "http://localhost:3000/verify-email?token=x" },
    });
    const now = new Date();
    const started = Date.now();
    expect(await deliverDueEmails({ db: db(), now, transport })).toEqual({
      sent: 0,
      failed: 1,
      more: false,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const waiting = await db().emailMessage.findFirstOrThrow({
      where: { to: "outage@example.ca" },
    });
    expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
    // Not due before its retry time.
    expect(
      await deliverDueEmails({ db: db(), now: new Date(now.getTime() + 1_000), transport }),
    ).toEqual({ sent: 0, failed: 0, more: false });

    const smtp = await startSmtpCapture({ port });
    stops.push(smtp.stop);
    const retryAt = new Date(now.getTime() + retryDelayMs(1));
    expect(await deliverDueEmails({ db: db(), now: retryAt, transport })).toEqual({
      sent: 1,
      failed: 0,
      more: false,
    });
    expect((await smtp.waitFor("outage@example.ca")).subject).not.toBe("");
    expect(
      await db().emailMessage.findFirstOrThrow({ where: { to: "outage@example.ca" } }),
    ).toMatchObject({ status: "sent" });
    expect(
      await deliverDueEmails({ db: db(), now: new Date(retryAt.getTime() + 3_600_000), transport }),
    ).toEqual({ sent: 0, failed: 0, more: false });
    expect(
      smtp.messages.filter((message) => message.to.includes("outage@example.ca")),
    ).toHaveLength(1);
  }, 30_000);
});
