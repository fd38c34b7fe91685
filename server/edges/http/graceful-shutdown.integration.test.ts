/**
 * SIGTERM on a real process (server/testing/lifecycle-instance.ts, wired as `npm start` is): /readyz
 * answers 503 at once while /healthz and the API still answer, every answer of the drain carries
 * `Connection: close`, a request still uploading when the drain ends completes, new connections are
 * refused after it, and the process exits 0; a second SIGTERM (not the same one delivered twice)
 * exits at once with 143.
 */
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { type InstanceProcess, startInstanceProcess } from "../../testing/instance-process";

const drainMs = 1_500;
const started: InstanceProcess[] = [];
const start = async (env: Record<string, string> = {}) => {
  const instance = await startInstanceProcess("lifecycle-instance.ts", {
    SHUTDOWN_DRAIN_MS: String(drainMs),
    SHUTDOWN_TIMEOUT_MS: "5000",
    ...env,
  });
  started.push(instance);
  return instance;
};
afterAll(() => {
  for (const instance of started) instance.kill();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A form POST to /oauth/token whose body arrives a few bytes at a time over `ms`: a request in
 * flight for that long. Resolves with the raw answer once the server closes the connection.
 */
const slowUpload = (port: number, ms: number) =>
  new Promise<string>((resolve, reject) => {
    const body = "grant_type=client_credentials&client_id=nobody&client_secret=nothing";
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
    socket.write(
      `POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const pieces = 10;
    const size = Math.ceil(body.length / pieces);
    for (let piece = 0; piece < pieces; piece++)
      setTimeout(
        () => socket.write(body.slice(piece * size, (piece + 1) * size)),
        ((piece + 1) * ms) / pieces,
      );
  });

/** Whether a new TCP connection to `port` is refused. */
const isRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("connect", () => (socket.destroy(), resolve(false)));
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });

describe("graceful shutdown", () => {
  it("SIGTERM: /readyz 503 at once, the drain serves with Connection: close, a request in flight completes, then the listener closes and the process exits 0", async () => {
    const instance = await start();
    const { base, port } = instance;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    // Sent through the drain's end: it is in flight when the listener closes.
    const upload = slowUpload(port, drainMs + 1_000);
    await sleep(100);
    const signalledAt = Date.now();
    process.kill(instance.pid, "SIGTERM");
    let notReadyAfter = Infinity;
    for (let tries = 0; tries < 100; tries++) {
      const response = await fetch(`${base}/readyz`);
      if (response.status === 503) {
        notReadyAfter = Date.now() - signalledAt;
        expect(response.headers.get("connection")).toBe("close");
        expect(((await response.json()) as { checks: object }).checks).toMatchObject({
          shutdown: "draining",
        });
        break;
      }
      await response.arrayBuffer();
      await sleep(5);
    }
    // "At once": well inside the drain, so a balancer probing during it sees the 503 (not a bound
    // in milliseconds: the signal's delivery and the probe's round trip are the machine's, 105 ms
    // once in CI under load), and it stays 503.
    expect(notReadyAfter).toBeLessThan(drainMs / 3);
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    // The drain: the instance still serves, and each answer ends its connection.
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get("connection")).toBe("close");
    const api = await fetch(`${base}/api/v1/me`);
    expect(api.status).toBe(401);
    expect(api.headers.get("connection")).toBe("close");
    // After the drain: no new connection, while the upload (its last bytes 2.4 s after the signal,
    // 0.9 s after the drain) is still in flight. Polled, not checked once: on a loaded machine the
    // instance's own timer can fire some hundreds of milliseconds late (a single check 300 ms after
    // the drain once failed in CI).
    let isUploadDone = false;
    void upload.then(() => (isUploadDone = true));
    await sleep(drainMs - (Date.now() - signalledAt));
    let refusedAfter = Infinity;
    while (Date.now() - signalledAt < drainMs + 5_000) {
      if (await isRefused(port)) {
        refusedAfter = Date.now() - signalledAt;
        break;
      }
      await sleep(20);
    }
    expect(refusedAfter).toBeLessThan(drainMs + 5_000);
    expect(isUploadDone).toBe(false);
    const answer = await upload;
    expect(answer).toMatch(/^HTTP\/1\.1 (400|401) /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain("invalid_client");
    const exit = await instance.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(instance.output()).toMatch(/stopped cleanly in \d+ ms/);
  });

  it("a SIGTERM delivered twice at once (process group and npm) is one stop; a second one later exits at once, with 143", async () => {
    const instance = await start({ SHUTDOWN_DRAIN_MS: "30000" });
    process.kill(instance.pid, "SIGTERM");
    process.kill(instance.pid, "SIGTERM");
    await sleep(300);
    const health = await fetch(`${instance.base}/healthz`);
    expect(health.status).toBe(200);
    expect((await fetch(`${instance.base}/readyz`)).status).toBe(503);
    await sleep(1_000);
    const secondAt = Date.now();
    process.kill(instance.pid, "SIGTERM");
    expect(await instance.exited).toEqual({ code: 143, signal: null });
    expect(Date.now() - secondAt).toBeLessThan(1_000);
  });
});
