/**
 * A closed-loop mix of partner and shopper traffic over HTTP, for the embedded-default load tier:
 * search (uncached), item detail, an item's price history, quotes, checkout creation, hosted checkout page views and paying
 * that page the way a browser without JavaScript does (the form's server-action fields, posted as
 * multipart; Next answers with the re-rendered page). Every answer is recorded by kind and status.
 */
import { randomUUID } from "node:crypto";

export type Kind = "search" | "detail" | "history" | "quote" | "checkout" | "page" | "pay";
export type Sample = { kind: Kind; status: number; ms: number; isPaid?: boolean };
export type Buyable = { item_id: number; size?: string };

const shippingAddress = {
  name: "Load Shopper",
  line1: "100 Queen St W",
  city: "Toronto",
  province: "ON",
  postal_code: "M5H 2N2",
  country: "CA",
};

const decodeHtml = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The hidden fields of the hosted page's pay form (server action id, bound state, checkout id). */
export const payFormFields = (html: string): [string, string][] | undefined => {
  const form = /<form[^>]*>((?:(?!<\/form>).)*name="number"(?:(?!<\/form>).)*)<\/form>/s.exec(
    html,
  )?.[1];
  if (!form) return undefined;
  const hidden = [
    ...form.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?\/?>/g),
  ];
  return hidden.map((match) => [decodeHtml(match[1]), decodeHtml(match[2] ?? "")]);
};

type Client = { baseUrl: string; authorization: () => string; record: (sample: Sample) => void };

/** One timed request; a refused connection or a timeout is recorded as status 0 (and fails the tier). */
const timed = async (
  client: Client,
  kind: Kind,
  url: string,
  init: RequestInit = {},
  isPartner = true,
) => {
  const started = performance.now();
  try {
    const headers = {
      ...(isPartner ? { authorization: client.authorization() } : {}),
      ...(init.headers as Record<string, string>),
    };
    const response = await fetch(`${client.baseUrl}${url}`, {
      ...init,
      headers,
      signal: AbortSignal.timeout(30_000),
    });
    const body = await response.text();
    const sample: Sample = { kind, status: response.status, ms: performance.now() - started };
    client.record(sample);
    return { status: response.status, body, sample };
  } catch {
    client.record({ kind, status: 0, ms: performance.now() - started });
    return { status: 0, body: "", sample: undefined };
  }
};

const json = (body: string) => {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
};

const postJson = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  body: JSON.stringify(body),
  headers: { "content-type": "application/json", ...headers },
});

/** Quote, checkout, hosted page, pay with the success card: the shopper's whole way through. */
const buyOnce = async (shared: Client, item: Buyable) => {
  // A quote belongs to the partner that made it: the checkout must come from the same one.
  const authorization = shared.authorization();
  const client = { ...shared, authorization: () => authorization };
  const quote = await timed(
    client,
    "quote",
    "/api/v1/checkout/quotes",
    postJson({ items: [item], shipping_address: shippingAddress }),
  );
  if (quote.status !== 201) return;
  const email = `load-${randomUUID().slice(0, 8)}@example.ca`;
  const session = await timed(
    client,
    "checkout",
    "/api/v1/checkout/sessions",
    postJson({ quote_id: json(quote.body).quote_id, email }, { "idempotency-key": randomUUID() }),
  );
  if (session.status !== 201) return;
  const pagePath = new URL(json(session.body).checkout_url).pathname;
  const page = await timed(client, "page", pagePath, {}, false);
  const fields = page.status === 200 ? payFormFields(page.body) : undefined;
  if (!fields) return;
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  for (const [name, value] of Object.entries({
    number: "4242 4242 4242 4242",
    exp_month: "12",
    exp_year: "2034",
    cvc: "123",
    accept_terms: "on",
  }))
    form.append(name, value);
  const paid = await timed(
    client,
    "pay",
    pagePath,
    { method: "POST", body: form, headers: { origin: client.baseUrl } },
    false,
  );
  if (paid.sample) paid.sample.isPaid = /data-testid="order-number"/.test(paid.body);
};

/** Runs one client's loop until `until` (ms since epoch): 40% search, 20% detail, 15% quote alone, 25% buy. */
export const runShopperLoop = async (
  options: Client & {
    searchPaths: string[];
    items: Buyable[];
    until: number;
    random: () => number;
  },
) => {
  const { random } = options;
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  while (Date.now() < options.until) {
    const roll = random();
    if (roll < 0.4)
      await timed(options, "search", pick(options.searchPaths), {
        headers: { "cache-control": "no-cache" },
      });
    else if (roll < 0.55)
      await timed(options, "detail", `/api/v1/products/${pick(options.items).item_id}`);
    else if (roll < 0.6)
      await timed(
        options,
        "history",
        `/api/v1/products/${pick(options.items).item_id}/price-history`,
      );
    else if (roll < 0.75)
      await timed(
        options,
        "quote",
        "/api/v1/checkout/quotes",
        postJson({ items: [pick(options.items)], shipping_address: shippingAddress }),
      );
    else await buyOnce(options, pick(options.items));
  }
};

const percentile = (sorted: number[], p: number) =>
  sorted.length
    ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))])
    : NaN;

/** Per kind: count, statuses, p50 / p95 / max ms. */
export const summarizeSamples = (samples: Sample[]) =>
  (["search", "detail", "history", "quote", "checkout", "page", "pay"] as Kind[]).map((kind) => {
    const mine = samples.filter((sample) => sample.kind === kind);
    const sorted = mine.map((sample) => sample.ms).sort((a, b) => a - b);
    const statuses: Record<number, number> = {};
    for (const sample of mine) statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
    return {
      kind,
      count: mine.length,
      statuses: JSON.stringify(statuses),
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: percentile(sorted, 100),
    };
  });
