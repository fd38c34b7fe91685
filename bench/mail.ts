/**
 * `npm run bench -- mail [--rtt 20]`: how fast the outbox leaves through an SMTP relay `--rtt` ms
 * away, and how long a sign-in link waits behind a sale's notifications. In-process, on a fresh
 * local database: 900 bulk notifications (search-watch-matches), then 100 verify emails, all due at
 * once; the sender runs as the sweep runs it (a batch, and the next at once while a batch is full)
 * against the SMTP capture behind a latency proxy (bench/lib/latency-proxy.ts). Two transports in
 * one run: `?pool=false` (a connection an email, one at a time: the sender before docs/adr/0130)
 * and the default pool. No TLS: a real relay's STARTTLS adds round trips to every connection, so
 * the one-connection-an-email figure here is its best case.
 */
import { machine } from "./lib/machine";
import { percentile, printTable, writeResult } from "./lib/report";
import { withScratchDatabase } from "./lib/database";
import { startLatencyProxy } from "./lib/latency-proxy";

const bulkEmails = 900;
const urgentEmails = 100;

export const benchMail = async (options: { rttMs: number }) => {
  await withScratchDatabase(`shopping_bench_mail_${process.pid}`, async () => {
    const { db } = await import("../server/platform/db");
    const { enqueueEmail } = await import("../server/platform/mail/outbox");
    const { deliverDueEmails, smtpTransport } = await import("../server/platform/mail/sender");
    const { startSmtpCapture } = await import("../server/testing/smtp-capture");
    const { previewProps } = await import("../emails/search-watch-matches");
    const capture = await startSmtpCapture();
    const proxy = await startLatencyProxy(
      { port: Number(new URL(capture.url).port) },
      options.rttMs,
    );
    const relay = `smtp://127.0.0.1:${proxy.port}`;
    const runs = [];
    for (const { label, url } of [
      { label: "a connection an email (before)", url: `${relay}?pool=false` },
      { label: "pool (after)", url: relay },
    ]) {
      capture.messages.length = 0;
      const opened = capture.connections.opened;
      for (let i = 0; i < bulkEmails; i++)
        await enqueueEmail(db(), {
          to: `bulk${i}@example.ca`,
          template: "search-watch-matches",
          props: previewProps,
        });
      const urgentQueuedAt = Date.now();
      for (let i = 0; i < urgentEmails; i++)
        await enqueueEmail(db(), {
          to: `urgent${i}@example.ca`,
          template: "verify-email",
          props: { confirmUrl: "http://localhost:3000/verify-email?token=bench" },
        });
      console.log(`${label}: ${bulkEmails + urgentEmails} emails due, sending (${relay})`);
      const transport = smtpTransport(url);
      const started = Date.now();
      let failed = 0;
      for (;;) {
        const batch = await deliverDueEmails({ db: db(), now: new Date(), transport });
        failed += batch.failed;
        if (!batch.more) break;
      }
      const seconds = (Date.now() - started) / 1000;
      transport.close?.();
      const urgentWaits = capture.messages
        .filter((message) => message.to[0].startsWith("urgent"))
        .map((message) => message.receivedAt - urgentQueuedAt);
      const received = capture.messages.length;
      runs.push({
        transport: label,
        emails: bulkEmails + urgentEmails,
        received,
        unique: new Set(capture.messages.map((message) => message.to[0])).size,
        failed,
        seconds,
        emailsPerSecond: received / seconds,
        connections: capture.connections.opened - opened,
        urgentWaitMs: { p50: percentile(urgentWaits, 0.5), max: Math.max(...urgentWaits) },
      });
    }
    await proxy.close();
    await capture.stop();
    printTable(`Outbox through a relay ${options.rttMs} ms away (round trip)`, [
      ...runs.map((run) => ({
        transport: run.transport,
        emails: run.emails,
        received: run.received,
        duplicates: run.received - run.unique,
        failed: run.failed,
        "drained (s)": run.seconds.toFixed(1),
        "emails/s": run.emailsPerSecond.toFixed(1),
        connections: run.connections,
        "verify p50 (ms)": run.urgentWaitMs.p50,
        "verify max (ms)": run.urgentWaitMs.max,
      })),
    ]);
    console.log(
      `written ${writeResult("mail", { name: "mail", rttMs: options.rttMs, bulkEmails, urgentEmails, runs, measuredAt: new Date().toISOString(), machine: machine() })}`,
    );
    await db().$disconnect();
    if (runs.some((run) => run.received !== run.emails || run.unique !== run.emails))
      process.exitCode = 1;
  });
};
