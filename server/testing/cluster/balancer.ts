/**
 * HAProxy (Debian's haproxy 2.6) in front of several `npm start` instances, for the multi-instance
 * tier: the configuration is written into a temporary folder and `haproxy -f cfg -db` runs as a
 * child process (no root configuration, no systemd). Why HAProxy and which retries are safe:
 * docs/adr/0114-multi-instance-tier.md.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export type Balancer = {
  url: string;
  /** The servers' state as HAProxy's health checks see it ("UP", "DOWN", "MAINT", …), by name. */
  serverStates: () => Promise<Record<string, string>>;
  /** Waits until HAProxy sees `name` in `state` (its checks run every 200 ms). */
  waitForState: (name: string, state: "UP" | "DOWN", timeoutMs?: number) => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * The configuration. Health: `GET /readyz` every 200 ms (an answer may take up to 2 s), out after
 * two failures (one slow answer on a busy machine does not take an instance out), in after two
 * passes. Retries: a connection that could not be made never reached a server, so it is retried on
 * another server (`redispatch`) whatever the request; a request that reached a server which then
 * died (no answer, or no answer in time) is replayed only when replaying is safe: GET, HEAD and
 * OPTIONS, and any request with an Idempotency-Key (the service answers a replay with the stored
 * outcome, or 409 idempotency_key_in_use while the first is running or until its claim is
 * abandoned). Every other POST (a quote, a token exchange, a refresh that would trip reuse
 * detection) is never replayed.
 */
const haproxyConfig = (options: {
  port: number;
  servers: { name: string; port: number }[];
  socket: string;
  checkPath: string;
}) => `global
  maxconn 1024
  stats socket ${options.socket} mode 600 level admin

defaults
  mode http
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  # A check answered slowly (a busy machine) is not a failure; a stopped or draining instance answers at once.
  timeout check 2s
  timeout http-keep-alive 5s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout

frontend api
  bind 127.0.0.1:${options.port}
  default_backend instances

backend instances
  balance roundrobin
  option httpchk GET ${options.checkPath}
  http-check expect status 200
  http-request disable-l7-retry unless { method GET HEAD OPTIONS } || { req.hdr(idempotency-key) -m found }
  default-server inter 200ms fastinter 200ms downinter 200ms fall 2 rise 2
${options.servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port} check`).join("\n")}
`;

/** One command on HAProxy's admin socket; its answer. */
const askSocket = (socket: string, command: string) =>
  new Promise<string>((resolve, reject) => {
    const connection = connect(socket);
    let answer = "";
    connection.on("data", (chunk) => (answer += chunk.toString()));
    connection.on("end", () => resolve(answer));
    connection.on("error", reject);
    connection.end(`${command}\n`);
  });

export const startBalancer = async (options: {
  port: number;
  servers: { name: string; port: number }[];
  checkPath: string;
  log: (line: string) => void;
}): Promise<Balancer> => {
  const dir = mkdtempSync(path.join(tmpdir(), "shopping-haproxy-"));
  const socket = path.join(dir, "admin.sock");
  const config = path.join(dir, "haproxy.cfg");
  writeFileSync(config, haproxyConfig({ ...options, socket }));
  const child: ChildProcess = spawn("haproxy", ["-f", config, "-db"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const line of chunk.toString().split("\n").filter(Boolean))
      options.log(`  haproxy: ${line.trim()}`);
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const serverStates = async () => {
    const csv = await askSocket(socket, "show stat");
    const [header, ...rows] = csv.trim().split("\n");
    const columns = header.replace(/^# /, "").split(",");
    const [proxy, name, status] = ["pxname", "svname", "status"].map((column) =>
      columns.indexOf(column),
    );
    return Object.fromEntries(
      rows
        .map((row) => row.split(","))
        .filter((cells) => cells[proxy] === "instances" && !["BACKEND"].includes(cells[name]))
        .map((cells) => [cells[name], cells[status]]),
    );
  };
  const waitForState = async (name: string, state: "UP" | "DOWN", timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await serverStates().catch(() => ({}) as Record<string, string>);
      if (states[name]?.startsWith(state)) return;
      if (Date.now() > deadline)
        throw new Error(`haproxy: ${name} not ${state} within ${timeoutMs} ms (${states[name]})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  // Up once the admin socket answers.
  for (let waited = 0; ; waited += 50) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
    if (
      await serverStates().then(
        () => true,
        () => false,
      )
    )
      break;
    if (waited > 10_000) throw new Error(`haproxy did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    serverStates,
    waitForState,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
