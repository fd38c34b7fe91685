/**
 * For tests of hosts named by outsiders (server/platform/http/outbound-host.ts): a DNS server on this
 * machine that takes every query and never answers, and a measure of whether libuv's thread pool is
 * free while lookups wait on it.
 */
import { scrypt } from "node:crypto";
import { createSocket } from "node:dgram";
import { lookup } from "node:dns/promises";

/** A DNS server on 127.0.0.1 that receives every query and never answers. */
export const startSilentDns = async () => {
  const socket = createSocket("udp4");
  let queries = 0;
  socket.on("message", () => queries++);
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    queries: () => queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
};

/**
 * Milliseconds until a system lookup (getaddrinfo: /etc/hosts' localhost) and four small scrypt hashes
 * have all answered, started together. libuv runs getaddrinfo on its pool and lets lookups take at
 * most half of its 4 threads, so lookups held by a silent name server would queue this one (39.8 s
 * behind eight, measured); scrypt (sign-in's hash) would have half the pool.
 */
export const timeThreadPool = async () => {
  const started = performance.now();
  await Promise.all([
    lookup("localhost"),
    ...Array.from(
      { length: 4 },
      () =>
        new Promise((resolve, reject) =>
          scrypt("password", "salt", 32, { N: 1024 }, (error, key) =>
            error ? reject(error) : resolve(key),
          ),
        ),
    ),
  ]);
  return performance.now() - started;
};
