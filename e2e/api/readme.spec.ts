/**
 * [README] the "First calls" section, run as a newcomer runs it: its bash commands as written
 * (npm run ops, curl), with only the address (the test server's port), the ids each step prints
 * and the example item (one the seeded catalogue sells) put in. A command or body the service no
 * longer accepts fails here before a newcomer finds it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { serviceState } from "../fixtures/api-client";

const root = path.resolve(__dirname, "..", "..");
const section = readFileSync(path.join(root, "README.md"), "utf8")
  .split("\n## First calls\n")[1]
  .split("\n## ")[0];
const commands = [...section.matchAll(/```bash\n([\s\S]*?)```/g)].flatMap((block) =>
  block[1]
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .filter(Boolean),
);

const run = (command: string, env: Record<string, string>) => {
  const { baseUrl, databaseUrl } = serviceState();
  return execFileSync("bash", ["-c", command.replaceAll("http://localhost:3000", baseUrl)], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
  });
};
const find = (prefix: string) => {
  const command = commands.find((line) => line.startsWith(prefix) || line.includes(prefix));
  if (!command) throw new Error(`README's First calls have no command with ${prefix}`);
  return command;
};

test("[README] first calls: create a client, get a token, search, quote, check out, open the link", async ({
  request,
}) => {
  const client = JSON.parse(
    run(find("npm run ops -- client:create"), {}).trim().split("\n").pop()!,
  );
  const env: Record<string, string> = {
    CLIENT_ID: client.client_id,
    CLIENT_SECRET: client.client_secret,
  };
  const token = JSON.parse(run(find("grant_type=client_credentials"), env));
  expect(token.token_type).toBe("Bearer");
  env.ACCESS_TOKEN = token.access_token;

  // The README's query answers a page (the e2e catalogue is smaller than the 5,000 items a newcomer gets, so it may be empty).
  const search = JSON.parse(run(find("/api/v1/products?"), env));
  expect(search.pagination).toMatchObject({ page: 1, per_page: 10 });
  expect(Array.isArray(search.data)).toBe(true);
  // The README's example item (42, size M) stands for one the catalogue sells: take one from the search.
  const item = (
    await (
      await request.get("/api/v1/products?per_page=48", {
        headers: { Authorization: `Bearer ${env.ACCESS_TOKEN}` },
      })
    ).json()
  ).data.find(
    (candidate: { available: boolean; sizes: string[] }) =>
      candidate.available && candidate.sizes.length === 1,
  ) as { id: number; sizes: string[] };
  const quoteCommand = find("/api/v1/checkout/quotes").replace(
    '"item_id":42,"size":"M"',
    `"item_id":${item.id},"size":${JSON.stringify(item.sizes[0])}`,
  );
  const quote = JSON.parse(run(quoteCommand, env));
  expect(quote.quote_id).toMatch(/^quo_/);

  const checkout = JSON.parse(
    run(find("/api/v1/checkout/sessions").replace("quo_…", quote.quote_id), env),
  );
  expect(checkout.status).toBe("awaiting_payment");
  expect((await request.get(checkout.checkout_url)).status()).toBe(200);
});

test("[README] the assistant connector's curl answers a search_products tool result", () => {
  // The README's first calls show the public connector with one curl.
  const mcp = readFileSync(path.join(root, "README.md"), "utf8");
  const curl = [...mcp.matchAll(/```bash\n([\s\S]*?)```/g)]
    .map((block) => block[1].replace(/\\\n\s*/g, "").trim())
    .find((line) => line.includes("/mcp"));
  expect(curl, "the README has a curl to /mcp").toBeTruthy();
  const answer = JSON.parse(run(curl!, {}));
  expect(answer.jsonrpc).toBe("2.0");
  expect(answer.result.isError ?? false).toBe(false);
  expect(answer.result.structuredContent.pagination).toMatchObject({ page: 1, per_page: 3 });
});
