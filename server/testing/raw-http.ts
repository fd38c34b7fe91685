/**
 * A raw HTTP/1.1 client for tests: the request bytes reach the server unchanged (no client-side
 * URL, method or header checks, unlike fetch), and the answer is read with a deadline, so a
 * server that never answers fails the test instead of hanging it.
 */
import { connect } from "node:net";

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/** `GET /path` with the given extra header lines, as bytes. `Connection: close` unless a header says otherwise. */
export const rawRequestBytes = (
  method: string,
  target: string,
  headers: [string, string][] = [],
  body = "",
) => {
  const lines = [
    `${method} ${target} HTTP/1.1`,
    "Host: 127.0.0.1",
    ...headers.map(([name, value]) => `${name}: ${value}`),
  ];
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body, "latin1")}`);
  lines.push("Connection: close");
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body}`, "latin1");
};

const parse = (
  data: Buffer,
  isHead: boolean,
): { response: RawResponse; complete: boolean } | undefined => {
  const end = data.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] =
      headers[name] === undefined
        ? line.slice(colon + 1).trim()
        : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
  }
  const body = data.subarray(end + 4);
  const length =
    headers["content-length"] === undefined ? undefined : Number(headers["content-length"]);
  const bodyless = isHead || status === 204 || status === 304;
  const complete = bodyless || (length !== undefined && body.length >= length);
  return { response: { status, headers, body: body.toString("utf8") }, complete };
};

/** Sends `request` to 127.0.0.1:`port` and resolves with the first response, or rejects after `deadlineMs`. */
export const rawRequest = (
  port: number,
  request: Buffer,
  options: { deadlineMs?: number; isHead?: boolean } = {},
) =>
  new Promise<RawResponse>((resolve, reject) => {
    const deadlineMs = options.deadlineMs ?? 2_000;
    const socket = connect(port, "127.0.0.1");
    let data = Buffer.alloc(0);
    let settled = false;
    const settle = (error?: Error, timedOut = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = parse(data, options.isHead ?? false);
      if (parsed && !timedOut) resolve(parsed.response);
      else
        reject(
          error ?? new Error(`the connection closed without a response (${data.length} bytes)`),
        );
    };
    const timer = setTimeout(
      () => settle(new Error(`no complete response within ${deadlineMs} ms`), true),
      deadlineMs,
    );
    socket.on("data", (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (parse(data, options.isHead ?? false)?.complete) settle();
    });
    socket.on("error", (error) => settle(error));
    socket.on("close", () => settle());
    socket.write(request);
  });
