/**
 * A real HTTP receiver on loopback for webhook tests and the benchmark: it verifies every request
 * with the standardwebhooks package's own verifier (signature and timestamp), records it, and
 * answers what `answer` says (200 by default).
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Received = {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { type: string; timestamp: string; data: unknown };
  verified: boolean;
  verifiedBy: number[];
  receivedAt: number;
};

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });

/** Which of `secrets` verify this request (indexes), with the package's verifier. */
const verifiers = (secrets: readonly string[], body: string, headers: Record<string, string>) =>
  secrets.flatMap((secret, index) => {
    try {
      new Webhook(secret).verify(body, headers);
      return [index];
    } catch {
      return [];
    }
  });

export const startReceiver = async (
  options: {
    port?: number;
    secrets?: string[];
    answer?: (received: Received, count: number) => number;
  } = {},
) => {
  const received: Received[] = [];
  const state = { secrets: options.secrets ?? [], answer: options.answer ?? (() => 200) };
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const headers = {
      "webhook-id": String(request.headers["webhook-id"] ?? ""),
      "webhook-timestamp": String(request.headers["webhook-timestamp"] ?? ""),
      "webhook-signature": String(request.headers["webhook-signature"] ?? ""),
    };
    const verifiedBy = verifiers(state.secrets, body, headers);
    const entry: Received = {
      id: headers["webhook-id"],
      timestamp: headers["webhook-timestamp"],
      signature: headers["webhook-signature"],
      body,
      payload: JSON.parse(body),
      verified: verifiedBy.length > 0,
      verifiedBy,
      receivedAt: Date.now(),
    };
    received.push(entry);
    response.writeHead(state.answer(entry, received.length));
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Secrets the verifier tries (the endpoint's, once known). */
    setSecrets: (secrets: string[]) => void (state.secrets = secrets),
    setAnswer: (answer: (received: Received, count: number) => number) =>
      void (state.answer = answer),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
