/** A real SMTP server for tests (smtp-server) that keeps every message it receives, parsed. */
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

export type CapturedEmail = {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** When its data was read (Date.now()). */
  receivedAt: number;
};

/**
 * Listens on `port` when given (an SMTP server coming back where the service expects it), else on
 * any free port. While `isStalled()` is true, a message's data is read and never answered (a sender
 * stuck mid-delivery, holding its claim): it is not kept, and `stalled` counts it.
 */
export const startSmtpCapture = async (
  options: {
    port?: number;
    isStalled?: () => boolean;
    /** Waits this long before accepting each message (a relay that takes its time). */
    acceptDelayMs?: number;
  } = {},
) => {
  const messages: CapturedEmail[] = [];
  const stalled = { count: 0 };
  /** Connections opened in all, and the most open at once. */
  const connections = { opened: 0, open: 0, mostOpen: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // No reverse DNS of 127.0.0.1 before each greeting (smtp-server waits up to 1.5 s for an answer).
    disableReverseLookup: true,
    // A pooled sender's idle connections are told 421 and closed at stop rather than waited for 30 s.
    closeTimeout: 500,
    onConnect: (session, callback) => {
      connections.opened++;
      connections.mostOpen = Math.max(connections.mostOpen, ++connections.open);
      callback();
    },
    onClose: () => {
      connections.open--;
    },
    onData: (stream, session, callback) => {
      if (options.isStalled?.()) {
        stalled.count++;
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const parsed = await PostalMime.parse(Buffer.concat(chunks));
        messages.push({
          from: parsed.from?.address ?? "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: parsed.html ?? "",
          receivedAt: Date.now(),
        });
        if (options.acceptDelayMs) setTimeout(callback, options.acceptDelayMs);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    stalled,
    connections,
    /** Waits until a message to `address` arrives (the sender works asynchronously). */
    waitFor: async (address: string, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((message) => message.to.includes(address));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no email to ${address} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
