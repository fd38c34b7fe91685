/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, run under Node 24 from
 * .ci/node24) against the public connector over real HTTP. The scenarios that apply to this server
 * (server-initialize, ping, tools-list, dns-rebinding-protection) must pass; the others exercise a
 * reference server's demo tools, resources and prompts and are listed, each with its reason, in
 * conformance-expected-failures.yml. The suite fails on an unexpected failure and on a listed
 * scenario that now passes (a stale entry), and so does this test.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConnectorServer } from "../../testing/mcp-server";

const root = path.resolve(__dirname, "../../..");
const node24 = path.join(root, ".ci/node24/node_modules/.bin/node");
const conformance = path.join(
  root,
  ".ci/node24/node_modules/@modelcontextprotocol/conformance/dist/index.js",
);
const expectedFailures = path.join(__dirname, "conformance-expected-failures.yml");
const required = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

let server: Awaited<ReturnType<typeof startConnectorServer>>;
beforeAll(async () => {
  server = await startConnectorServer();
});
afterAll(() => server.stop());

const run = (args: string[]) =>
  new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(node24, [conformance, ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });

describe("MCP conformance suite against /mcp", () => {
  it(
    "passes every scenario that applies, and fails only the listed ones",
    { timeout: 240_000 },
    async () => {
      expect(existsSync(node24), "Node 24 of .ci/node24").toBe(true);
      const { code, output } = await run([
        "server",
        "--url",
        `${server.base}/mcp`,
        "--expected-failures",
        expectedFailures,
      ]);
      // The summary has one line per scenario: "✓ tools-list: 1 passed, 0 failed".
      const results = Object.fromEntries(
        [...output.matchAll(/^([✓✗]) ([\w-]+): (\d+) passed, (\d+) failed$/gm)].map((match) => [
          match[2],
          { passed: Number(match[3]), failed: Number(match[4]) },
        ]),
      );
      for (const scenario of required) {
        expect(results[scenario], `${scenario}\n${output.slice(-3000)}`).toBeDefined();
        expect(results[scenario].failed, `${scenario}\n${output.slice(-3000)}`).toBe(0);
        expect(results[scenario].passed).toBeGreaterThan(0);
      }
      expect(code, output.slice(-3000)).toBe(0);
    },
  );
});
