/**
 * `npm run bench -- <search|mcp|quote|checkout|purchase|token|load|embedded|webhooks|soak|watches|mail> [--items N] [--seconds S] [--only memory|postgres] [--rate R] [--minutes M] [--rtt MS]`.
 * `purchase` runs on a fresh database of its own (default --rate 50), see bench/purchase.ts.
 * `load` only loads (timed) the catalogue database for --items, if it is empty. `embedded` compares
 * the embedded default with the configured servers (default 5,000 items, the sandbox seed; --rate 100).
 * `soak` holds a mixed load for --minutes (default 10; 20,000 items, --rate 20), see bench/soak.ts.
 * `mail` sends a burst of emails through a relay --rtt ms away (default 20), see bench/mail.ts.
 * Catalogue databases are shopping_bench_<size> on the local server (BENCH_DB_PREFIX changes the
 * prefix), created and loaded on first use and kept. Results go to bench/results/<name>.json.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { benchCheckout } from "./checkout";
import { benchEmbedded } from "./embedded";
import { benchMail } from "./mail";
import { benchMcp } from "./mcp";
import { benchPurchase } from "./purchase";
import { ensureCatalogDatabase } from "./lib/database";
import { benchSearch } from "./search";
import { benchSoak } from "./soak";
import { benchToken } from "./token";
import { benchWatches } from "./watches";
import { benchWebhooks } from "./webhooks";

const usage =
  "usage: npm run bench -- <search|mcp|quote|checkout|purchase|token|load|embedded|webhooks|soak|watches|mail> [--items 100000] [--seconds 20] [--only memory|postgres] [--rate 100] [--minutes 10] [--rtt 20]";

const ZArgs = z.object({
  command: z.enum(
    [
      "search",
      "mcp",
      "quote",
      "checkout",
      "purchase",
      "token",
      "load",
      "embedded",
      "webhooks",
      "soak",
      "watches",
      "mail",
    ],
    { error: usage },
  ),
  items: z.coerce.number().int().min(1000).max(10_000_000).default(100_000),
  seconds: z.coerce.number().int().min(3).max(600).default(20),
  only: z.enum(["memory", "postgres"]).optional(),
  rate: z.coerce.number().int().min(1).max(10_000).default(100),
  minutes: z.coerce.number().int().min(1).max(120).default(10),
  rtt: z.coerce.number().int().min(0).max(1000).default(20),
});

const main = async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      items: { type: "string" },
      seconds: { type: "string" },
      only: { type: "string" },
      rate: { type: "string" },
      minutes: { type: "string" },
      rtt: { type: "string" },
    },
  });
  const parsed = ZArgs.safeParse({ command: positionals[0], ...values });
  if (!parsed.success) {
    console.error(
      parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("\n"),
    );
    process.exit(2);
  }
  const args = parsed.data;
  if (args.command === "search") await benchSearch(args);
  else if (args.command === "mcp") await benchMcp(args);
  else if (args.command === "token") await benchToken(args);
  else if (args.command === "embedded")
    await benchEmbedded({
      items: values.items ? args.items : 5000,
      seconds: args.seconds,
      rate: args.rate,
    });
  else if (args.command === "purchase")
    await benchPurchase({ seconds: args.seconds, rate: values.rate ? args.rate : 50 });
  else if (args.command === "webhooks") await benchWebhooks();
  else if (args.command === "mail") await benchMail({ rttMs: args.rtt });
  else if (args.command === "soak")
    await benchSoak({
      minutes: args.minutes,
      rate: values.rate ? args.rate : 20,
      items: values.items ? args.items : 20_000,
    });
  else if (args.command === "watches")
    await benchWatches({ items: values.items ? args.items : 20_000, seconds: args.seconds });
  else if (args.command === "load")
    await ensureCatalogDatabase(args.items, (line) => console.log(line));
  else await benchCheckout({ kind: args.command, items: args.items, seconds: args.seconds });
};

main()
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
