/**
 * Search watches end to end below the HTTP edge: watches set over REST with real linked tokens,
 * catalogue events written by the catalogue's own paths (a new listing, a price change, a released
 * hold, an expired checkout), processed as the sweep and the Inngest function do. A match on each
 * kind of event, none outside the filters, the hourly digest, zero double notifications with two
 * processors, a buying watch that buys once with two evaluators racing, scopes per mode, the
 * per-person limit, another person's watch 404, expiry; the email over real SMTP.
 */
import { registry } from "../platform/observability/metrics";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationHandler } from "@/server/edges/rest/rest-router";
import {
  createCategory,
  createLinkingPartner,
  createPartner,
  createPerson,
  createStore,
} from "../../prisma/factories";
import { db } from "../platform/db";
import { deliverDueEmails, smtpTransport } from "../platform/mail/sender";
import { processPriceChanges } from "../price-changes/process-price-changes";
import { listItems, type NewListing, setItemPrice } from "../catalogue";
import { expireDueCheckouts } from "../checkout";
import { cancelPurchase } from "../purchases";
import { paymentProvider } from "../payments";
import { obtainCode, token as tokenEndpoint } from "../testing/oauth";
import { callRoute } from "../testing/rest";
import { startSmtpCapture } from "../testing/smtp-capture";
import { statementsSent } from "../testing/statements-sent";
import { createBuyer } from "../testing/watch-fixtures";
import { buy, quoteOf } from "../testing/agent-purchases";
import { createCheckoutVia, createQuoteVia } from "../testing/checkout-fixtures";
import { searchWatchHandler } from "./match-on-catalogue-change";
import { runSearchWatchWork } from "./search-watch-jobs";
import { maxLiveSearchWatches } from "./states";

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
beforeAll(async () => {
  smtp = await startSmtpCapture();
  await createCategory("Women > Outerwear > Coats");
  await createCategory("Men > Shirts");
});
afterAll(async () => {
  await smtp?.stop();
});

/** A word no other test's item has (letters only, so it is one lexeme). */
const word = () =>
  `q${randomBytes(6)
    .toString("hex")
    .replace(/[0-9]/g, (digit) => "ghijklmnop"[Number(digit)])}`;

const answer = async (response: Response) => ({
  status: response.status,
  body: await response.json(),
});

const post = async (token: string, body: unknown) =>
  answer(
    await callRoute(operationHandler("POST /api/v1/search-watches"), {
      path: "/search-watches",
      token,
      body,
    }),
  );
const get = async (token: string, id: string) =>
  answer(
    await callRoute(operationHandler("GET /api/v1/search-watches/{search_watch_id}"), {
      path: `/search-watches/${id}`,
      token,
      params: { search_watch_id: id },
    }),
  );
const cancel = async (token: string, id: string) =>
  answer(
    await callRoute(operationHandler("DELETE /api/v1/search-watches/{search_watch_id}"), {
      method: "DELETE",
      path: `/search-watches/${id}`,
      token,
      params: { search_watch_id: id },
    }),
  );
const list = async (token: string, query = "") =>
  answer(
    await callRoute(operationHandler("GET /api/v1/search-watches"), {
      path: `/search-watches${query}`,
      token,
    }),
  );

/** A person linked to a partner with alerts:write ticked: the notify mode's token. */
const linked = async () => {
  const { person } = await createPerson();
  const { client, secret } = await createLinkingPartner();
  const redirectUri = client.redirectUris[0];
  const { code, verifier } = await obtainCode({
    personId: person.id,
    clientId: client.id,
    redirectUri,
    scope: "catalog:read alerts:write",
    tick: ["alerts:write"],
  });
  const tokens = await (
    await tokenEndpoint({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: client.id,
      client_secret: secret,
    })
  ).json();
  return { person, token: tokens.access_token as string };
};

const listing = (overrides: Partial<NewListing> = {}): NewListing => ({
  title: `Item ${word()}`,
  brand: "Atelier Nord",
  description: "",
  categoryPath: "Women > Outerwear > Coats",
  priceCents: 8_000,
  condition: "good",
  sizes: ["M"],
  color: "Charcoal",
  quantity: 1,
  ...overrides,
});

const directStore = () => createStore({ agentCheckout: "direct" });

const list1 = async (slug: string, overrides: Partial<NewListing> = {}, now = new Date()) =>
  (await listItems(slug, [listing(overrides)], { now })).itemIds[0];

const processAt = (now: () => Date = () => new Date()) => processPriceChanges(db(), { now });

/** A counter's value for `labels` in this process's metrics registry (0 when never counted). */
const counted = async (name: string, labels: Record<string, string>) =>
  (await registry.getSingleMetric(name)!.get()).values.find((value) =>
    Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted),
  )?.value ?? 0;

/** The watch's integer key, which its match rows carry (ADR 0127). */
const seqOf = async (id: string) =>
  (await db().searchWatch.findUniqueOrThrow({ where: { id }, select: { seq: true } })).seq;

const matchesOfSeq = (seq: number) =>
  db().searchWatchMatch.findMany({ where: { searchWatchSeq: seq }, orderBy: { matchedAt: "asc" } });

const matchesOf = async (id: string) => matchesOfSeq(await seqOf(id));

const emailsTo = (to: string) =>
  db().emailMessage.findMany({
    where: { to, template: "search-watch-matches" },
    orderBy: { createdAt: "asc" },
  });

type EmailedMatch = { title: string; url: string; reason: string };
const namedIn = (emails: { props: unknown }[]) =>
  emails.flatMap((email) => (email.props as { matches: EmailedMatch[] }).matches);

describe("notify mode", () => {
  it("a new listing (POST /sandbox/items) matches: one email at once, delivered over SMTP; items outside the filters do not", async () => {
    const { token, person } = await linked();
    const store = await directStore();
    const other = await directStore();
    const q = word();
    const created = await post(token, {
      mode: "notify",
      q,
      category: "Women > Outerwear",
      size: ["MD"],
      max_price: "100",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      mode: "notify",
      status: "active",
      filters: {
        q,
        category: "Women > Outerwear",
        size: ["MD"],
        max_price: { amount: "100.00", currency: "CAD" },
        min_price: null,
      },
      max_total: null,
      matches_count: 0,
    });
    expect(created.body.search_watch_id).toMatch(/^srw_[0-9a-f]{24}$/);
    const partner = await createPartner({ scopes: ["catalog:read"] });
    const listed = await answer(
      await callRoute(operationHandler("POST /api/v1/sandbox/items"), {
        path: "/sandbox/items",
        token: await partner.token(),
        body: {
          store: store.slug,
          title: `Long ${q} coat`,
          category: "Women > Outerwear > Coats",
          price: "89.00",
          sizes: ["M", "L"],
          color: "Navy",
        },
      }),
    );
    expect(listed.status).toBe(201);
    // Outside the filters: over max_price, another category, another size, another word.
    await list1(other.slug, { title: `${q} coat`, priceCents: 20_000 });
    await list1(other.slug, { title: `${q} shirt`, categoryPath: "Men > Shirts" });
    await list1(other.slug, { title: `${q} coat`, sizes: ["XL"] });
    await list1(other.slug, { title: `${word()} coat` });
    const matchesBefore = await counted("shopping_search_watch_matches_total", {
      mode: "notify",
      reason: "new_listing",
    });
    const emailsBefore = await counted("shopping_search_watch_emails_total", { when: "at_match" });
    await processAt();
    const watch = await get(token, created.body.search_watch_id);
    expect(watch.body.matches_count).toBe(1);
    // The metrics (GET /metrics) count the match and the email.
    expect(
      await counted("shopping_search_watch_matches_total", {
        mode: "notify",
        reason: "new_listing",
      }),
    ).toBe(matchesBefore + 1);
    expect(await counted("shopping_search_watch_emails_total", { when: "at_match" })).toBe(
      emailsBefore + 1,
    );
    expect(watch.body.recent_matches[0]).toMatchObject({
      catalog_item_id: listed.body.catalog_item_id,
      reason: "new_listing",
      price: { amount: "89.00" },
    });
    expect(watch.body.recent_matches[0].emailed_at).not.toBeNull();
    const emails = await emailsTo(person.email);
    expect(emails).toHaveLength(1);
    expect(namedIn(emails).map((match) => match.title)).toEqual([`Long ${q} coat`]);
    await deliverDueEmails({ db: db(), now: new Date(), transport: smtpTransport(smtp.url) });
    const delivered = await smtp.waitFor(person.email);
    expect(delivered.subject).toContain(`Long ${q} coat`);
    expect(delivered.text).toContain("Newly listed");
    // The person can stop it themselves (the assistant that set it may be gone).
    expect(delivered.text).toContain(
      "You can stop this watch, or any of your saved searches, at any time from your account: http://localhost:3000/account/search-watches",
    );
    expect(smtp.messages.filter((message) => message.to.includes(person.email))).toHaveLength(1);
  });

  it("a price change into the range matches (price_change); the item's price history ignores listed events", async () => {
    const { token } = await linked();
    const store = await directStore();
    const q = word();
    const { body } = await post(token, { mode: "notify", q, max_price: 100 });
    const itemId = await list1(store.slug, { title: `${q} parka`, priceCents: 15_000 });
    await processAt();
    expect(await matchesOf(body.search_watch_id)).toHaveLength(0);
    await setItemPrice(db(), { itemId, priceCents: 9_500 }, { now: new Date() });
    await processAt();
    const matches = await matchesOf(body.search_watch_id);
    expect(matches.map((match) => [match.itemId, match.reason, match.priceCents])).toEqual([
      [itemId, "price_change", 9_500],
    ]);
    const history = await db().$queryRaw<{ kind: string }[]>`
      SELECT kind FROM price_change_events WHERE item_id = ${itemId} ORDER BY id`;
    expect(history.map((row) => row.kind)).toEqual(["listed", "price"]);
    // A later change of a matched item notifies nothing more: an item matches a watch once.
    await setItemPrice(db(), { itemId, priceCents: 9_000 }, { now: new Date() });
    await processAt();
    expect(await matchesOf(body.search_watch_id)).toHaveLength(1);
  });

  it("back in stock after a released hold (a held purchase cancelled): one available event, a match", async () => {
    const store = await directStore();
    const q = word();
    const itemId = await list1(store.slug, { title: `${q} cardigan`, priceCents: 5_000 });
    await processAt();
    const buyer = await createBuyer();
    const quote = await quoteOf(buyer.token, [itemId]);
    const held = await buy(buyer.token, quote.quote_id);
    expect(held.status).toBe(201);
    const { token, person } = await linked();
    const { body } = await post(token, { mode: "notify", q });
    await cancelPurchase(db(), paymentProvider(), {
      id: held.body.purchase_id,
      now: new Date(),
      by: "person",
    });
    const events = await db().priceChangeEvent.findMany({ where: { itemId, kind: "available" } });
    expect(events).toHaveLength(1);
    await processAt();
    expect((await matchesOf(body.search_watch_id)).map((match) => match.reason)).toEqual([
      "back_in_stock",
    ]);
    expect(namedIn(await emailsTo(person.email))[0].reason).toBe("back_in_stock");
  });

  it("back in stock after an expired checkout; a restock of an item that still had stock writes no event", async () => {
    const store = await directStore();
    const q = word();
    const itemId = await list1(store.slug, { title: `${q} blazer`, priceCents: 6_000 });
    const spare = await list1(store.slug, { title: `${word()} blazer`, quantity: 2 });
    await processAt();
    const partner = await createPartner();
    const partnerToken = await partner.token();
    for (const id of [itemId, spare]) {
      const quote = await createQuoteVia(partnerToken, [{ item_id: id }]);
      const { response } = await createCheckoutVia(partnerToken, {
        quote_id: quote.body.quote_id,
        email: "guest@example.ca",
      });
      expect(response.status).toBe(201);
    }
    const { token } = await linked();
    const { body } = await post(token, { mode: "notify", q });
    await expireDueCheckouts(db(), { now: new Date(Date.now() + 7 * 86_400_000) });
    expect(await db().priceChangeEvent.count({ where: { itemId, kind: "available" } })).toBe(1);
    expect(await db().priceChangeEvent.count({ where: { itemId: spare, kind: "available" } })).toBe(
      0,
    );
    await processAt();
    expect((await matchesOf(body.search_watch_id)).map((match) => match.reason)).toEqual([
      "back_in_stock",
    ]);
  });

  it("a digest: the second and third matches within the hour wait, then one email names both when the hour is up", async () => {
    const { token, person } = await linked();
    const store = await directStore();
    const q = word();
    const { body } = await post(token, { mode: "notify", q, color: ["charcoal"] });
    const start = Date.now();
    await list1(store.slug, { title: `${q} first` });
    await processAt(() => new Date(start));
    expect(await emailsTo(person.email)).toHaveLength(1);
    await list1(store.slug, { title: `${q} second` });
    await list1(store.slug, { title: `${q} third` });
    await processAt(() => new Date(start + 10 * 60_000));
    expect(await emailsTo(person.email)).toHaveLength(1);
    expect(
      (await matchesOf(body.search_watch_id)).filter((match) => !match.emailedAt),
    ).toHaveLength(2);
    // The sweep before the hour is up sends nothing.
    await runSearchWatchWork(db(), { now: new Date(start + 59 * 60_000) });
    expect(await emailsTo(person.email)).toHaveLength(1);
    await runSearchWatchWork(db(), { now: new Date(start + 61 * 60_000) });
    const emails = await emailsTo(person.email);
    expect(emails).toHaveLength(2);
    expect(
      namedIn([emails[1]])
        .map((match) => match.title)
        .sort(),
    ).toEqual([`${q} second`, `${q} third`]);
    await runSearchWatchWork(db(), { now: new Date(start + 3 * 3_600_000) });
    expect(await emailsTo(person.email)).toHaveLength(2);
  });

  it("the digest sweep's search is planned at every run, not prepared once (ADR 0132)", async () => {
    // A prepared statement's generic plan, made while the matches table was empty, scans the table
    // whole for each watch once a sale has filled it (18 minutes for one run in the watches
    // benchmark); planned at every run it probes the index for each watch.
    const sent = await statementsSent(() =>
      runSearchWatchWork(db(), { now: new Date(Date.now() + 2 * 3_600_000) }),
    );
    const digestSearch = sent.filter((statement) =>
      statement.text.includes("FROM search_watch_matches m WHERE m.search_watch_seq = w.seq"),
    );
    expect(digestSearch.length).toBeGreaterThan(0);
    expect(digestSearch.every((statement) => statement.name === undefined)).toBe(true);
    // The sweep's other statements stay prepared (named): only this search opts out.
    expect(sent.some((statement) => statement.name?.startsWith("sql_"))).toBe(true);
  });

  it("a match once the hour is up emails at once, also from the process that sent the last email", async () => {
    const { token, person } = await linked();
    const store = await directStore();
    const q = word();
    await post(token, { mode: "notify", q });
    const start = Date.now();
    await list1(store.slug, { title: `${q} first` });
    await processAt(() => new Date(start));
    await list1(store.slug, { title: `${q} second` });
    // This process took the turn at `start` (turns-taken.ts): an hour later the match has its own.
    await processAt(() => new Date(start + 61 * 60_000));
    const emails = await emailsTo(person.email);
    expect(emails).toHaveLength(2);
    expect(namedIn([emails[1]]).map((match) => match.title)).toEqual([`${q} second`]);
  });

  it("zero double notifications: two processors and the handler run many times over the same events", async () => {
    const people = await Promise.all(Array.from({ length: 3 }, () => linked()));
    const store = await directStore();
    const q = word();
    const ids: string[] = [];
    for (const { token } of people)
      ids.push((await post(token, { mode: "notify", q })).body.search_watch_id);
    const { eventIds } = await listItems(
      store.slug,
      Array.from({ length: 4 }, (_, index) => listing({ title: `${q} number ${index}` })),
      { now: new Date() },
    );
    const events = await db().priceChangeEvent.findMany({ where: { id: { in: eventIds } } });
    await Promise.all([
      processPriceChanges(db(), { now: () => new Date(), batch: 1 }),
      processPriceChanges(db(), { now: () => new Date(), batch: 1 }),
      ...Array.from({ length: 3 }, () =>
        events.map((event) => searchWatchHandler.handle(db(), event, { now: new Date() })),
      ).flat(),
    ]);
    await runSearchWatchWork(db(), { now: new Date(Date.now() + 2 * 3_600_000) });
    for (const [index, { person }] of people.entries()) {
      expect(await matchesOf(ids[index])).toHaveLength(4);
      const named = namedIn(await emailsTo(person.email)).map((match) => match.title);
      expect(named.sort()).toEqual(
        Array.from({ length: 4 }, (_, at) => `${q} number ${at}`).sort(),
      );
    }
  });
});

describe("buy mode", () => {
  it("buys the first new match once through the purchase path, even with two evaluators racing; then ends fulfilled", async () => {
    const buyer = await createBuyer();
    const store = await directStore();
    const q = word();
    const created = await post(buyer.token, { mode: "buy", q, max_total: 200 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ mode: "buy", max_total: { amount: "200.00" } });
    const { eventIds } = await listItems(store.slug, [listing({ title: `${q} boots` })], {
      now: new Date(),
    });
    const events = await db().priceChangeEvent.findMany({ where: { id: { in: eventIds } } });
    await Promise.all([
      searchWatchHandler.handle(db(), events[0], { now: new Date() }),
      searchWatchHandler.handle(db(), events[0], { now: new Date() }),
      processPriceChanges(db(), { now: () => new Date() }),
    ]);
    const { body } = await get(buyer.token, created.body.search_watch_id);
    expect(body).toMatchObject({ status: "fulfilled", outcome: "bought" });
    expect(body.order_number).toMatch(/^SO-/);
    const purchases = await db().purchase.findMany({ where: { personId: buyer.person.id } });
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({ id: body.purchase_id, status: "held" });
    expect(
      await db().emailMessage.count({
        where: { to: buyer.person.email, template: "purchase-copy" },
      }),
    ).toBe(1);
    // A later match buys nothing more: one purchase per watch.
    await list1(store.slug, { title: `${q} sandals` });
    await processAt();
    expect(await db().purchase.count({ where: { personId: buyer.person.id } })).toBe(1);
  });

  it("a buying watch left executing (a crash after its claim) is finished by the sweep with the same key: one purchase", async () => {
    const buyer = await createBuyer();
    const store = await directStore();
    const q = word();
    const { body } = await post(buyer.token, { mode: "buy", q, max_total: 200 });
    const itemId = await list1(store.slug, { title: `${q} loafers` });
    // The claim was made with a fresh quote, then the process died before the purchase.
    const quote = await quoteOf(buyer.token, [itemId]);
    await db().searchWatch.update({
      where: { id: body.search_watch_id },
      data: { status: "executing", quoteId: quote.quote_id, itemId, claimedAt: new Date() },
    });
    // Not yet stale: left alone.
    await runSearchWatchWork(db(), { now: new Date(Date.now() + 10_000) });
    expect(await db().purchase.count({ where: { personId: buyer.person.id } })).toBe(0);
    await Promise.all([
      runSearchWatchWork(db(), { now: new Date(Date.now() + 2 * 60_000) }),
      runSearchWatchWork(db(), { now: new Date(Date.now() + 2 * 60_000) }),
    ]);
    expect((await get(buyer.token, body.search_watch_id)).body).toMatchObject({
      status: "fulfilled",
      outcome: "bought",
      catalog_item_id: String(itemId),
    });
    await runSearchWatchWork(db(), { now: new Date(Date.now() + 5 * 60_000) });
    await processAt();
    expect(await db().purchase.count({ where: { personId: buyer.person.id } })).toBe(1);
  });

  it("a match over max_total is not bought and the watch stays active; when its price drops into max_total it buys it", async () => {
    const buyer = await createBuyer();
    const store = await directStore();
    const q = word();
    const { body } = await post(buyer.token, { mode: "buy", q, max_total: 60 });
    const itemId = await list1(store.slug, { title: `${q} gown`, priceCents: 55_00 });
    await processAt();
    expect((await get(buyer.token, body.search_watch_id)).body).toMatchObject({
      status: "active",
      matches_count: 1,
    });
    expect(await db().purchase.count({ where: { personId: buyer.person.id } })).toBe(0);
    await setItemPrice(db(), { itemId, priceCents: 30_00 }, { now: new Date() });
    await processAt();
    expect((await get(buyer.token, body.search_watch_id)).body).toMatchObject({
      status: "fulfilled",
      matches_count: 1,
      catalog_item_id: String(itemId),
    });
    expect(await db().purchase.count({ where: { personId: buyer.person.id } })).toBe(1);
  });
});

describe("the operations", () => {
  it("scopes per mode: notify needs alerts:write, buy needs purchase:write (403 naming it); 422 for bad fields", async () => {
    const buyer = await createBuyer();
    const notify = await post(buyer.token, { mode: "notify", q: "coat" });
    expect(notify.status).toBe(403);
    expect(notify.body.error.code).toBe("insufficient_scope");
    expect(notify.body.error.message).toContain("alerts:write");
    const { token } = await linked();
    const buying = await post(token, { mode: "buy", q: "coat", max_total: 100 });
    expect(buying.status).toBe(403);
    expect(buying.body.error.message).toContain("purchase:write");
    const invalid = await post(token, { mode: "notify", days: 31, status: "fulfilled" });
    expect(invalid.status).toBe(422);
    const noTotal = await post(buyer.token, { mode: "buy", q: "coat" });
    expect(noTotal.status).toBe(422);
    expect(noTotal.body.error.fields).toHaveProperty("max_total");
    // The price range is search's own rule (catalogue's checkPriceRange).
    const range = await post(buyer.token, {
      mode: "buy",
      max_total: 100,
      min_price: 50,
      max_price: 20,
    });
    expect(range.status).toBe(422);
    expect(range.body.error.fields).toEqual({ max_price: "must be at least min_price" });
    const partner = await createPartner({ scopes: ["catalog:read"] });
    expect((await post(await partner.token(), { mode: "notify", q: "coat" })).status).toBe(403);
  });

  it(`at most ${maxLiveSearchWatches} live per person (409 too_many_search_watches); a cancelled one frees a place; listed newest first`, async () => {
    const { token } = await linked();
    const ids: string[] = [];
    for (let index = 0; index < maxLiveSearchWatches; index++) {
      const created = await post(token, { mode: "notify", q: word() });
      expect(created.status).toBe(201);
      ids.push(created.body.search_watch_id);
    }
    const over = await post(token, { mode: "notify", q: "coat" });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe("too_many_search_watches");
    const cancelled = await cancel(token, ids[0]);
    expect(cancelled.body).toMatchObject({ status: "cancelled", outcome: "cancelled" });
    expect((await cancel(token, ids[0])).body.status).toBe("cancelled");
    expect((await post(token, { mode: "notify", q: "coat" })).status).toBe(201);
    const page = await list(token, "?per_page=2");
    expect(page.body.pagination).toMatchObject({ total: maxLiveSearchWatches + 1, per_page: 2 });
    expect(page.body.data[1].search_watch_id).toBe(ids[maxLiveSearchWatches - 1]);
  });

  it("another person's watch is 404 (read and cancel), and stays as it was", async () => {
    const owner = await linked();
    const stranger = await linked();
    const { body } = await post(owner.token, { mode: "notify", q: "coat" });
    expect((await get(stranger.token, body.search_watch_id)).status).toBe(404);
    expect((await cancel(stranger.token, body.search_watch_id)).status).toBe(404);
    expect((await get(owner.token, body.search_watch_id)).body.status).toBe("active");
  });

  it("an expired watch's matches of its last hour still reach the person, in one digest when the hour is up", async () => {
    const { token, person } = await linked();
    const store = await directStore();
    const q = word();
    const { body } = await post(token, { mode: "notify", q, days: 1 });
    const start = Date.now();
    await list1(store.slug, { title: `${q} first` });
    await processAt(() => new Date(start));
    await list1(store.slug, { title: `${q} last` });
    await processAt(() => new Date(start + 60_000));
    expect(await emailsTo(person.email)).toHaveLength(1);
    // It expires half an hour later, before its hour is up: nothing more yet, then the digest names the pending match.
    const expiredAt = new Date(start + 30 * 60_000);
    await db().searchWatch.update({
      where: { id: body.search_watch_id },
      data: { expiresAt: new Date(expiredAt.getTime() - 1) },
    });
    await runSearchWatchWork(db(), { now: expiredAt });
    expect((await get(token, body.search_watch_id)).body.status).toBe("expired");
    expect(await emailsTo(person.email)).toHaveLength(1);
    await runSearchWatchWork(db(), { now: new Date(start + 61 * 60_000) });
    const emails = await emailsTo(person.email);
    expect(emails).toHaveLength(2);
    expect(namedIn([emails[1]]).map((match) => match.title)).toEqual([`${q} last`]);
    await runSearchWatchWork(db(), { now: new Date(start + 3 * 3_600_000) });
    expect(await emailsTo(person.email)).toHaveLength(2);
  });

  it("expires at its time (the sweep), and then matches nothing", async () => {
    const { token } = await linked();
    const store = await directStore();
    const q = word();
    const { body } = await post(token, { mode: "notify", q, days: 1 });
    await runSearchWatchWork(db(), { now: new Date(Date.now() + 2 * 86_400_000) });
    expect((await get(token, body.search_watch_id)).body).toMatchObject({
      status: "expired",
      outcome: "expired",
    });
    await list1(store.slug, { title: `${q} scarf` });
    await processAt();
    expect(await matchesOf(body.search_watch_id)).toHaveLength(0);
  });
});

describe("the matches table", () => {
  it("a deleted item, watch or person takes its matches with it (no foreign keys: the delete triggers, ADR 0122)", async () => {
    const { token, person } = await linked();
    const store = await directStore();
    const q = word();
    const first = (await post(token, { mode: "notify", q })).body.search_watch_id as string;
    const second = (await post(token, { mode: "notify", q })).body.search_watch_id as string;
    // Their matches' key, read while the watches exist.
    const [firstSeq, secondSeq] = [await seqOf(first), await seqOf(second)];
    const kept = await list1(store.slug, { title: `${q} scarf` });
    const gone = await list1(store.slug, { title: `${q} hat` });
    await processAt();
    expect((await matchesOfSeq(firstSeq)).map((match) => match.itemId).sort()).toEqual(
      [kept, gone].sort(),
    );
    expect(await matchesOfSeq(secondSeq)).toHaveLength(2);
    await db().item.delete({ where: { id: gone } });
    expect((await matchesOfSeq(firstSeq)).map((match) => match.itemId)).toEqual([kept]);
    expect((await matchesOfSeq(secondSeq)).map((match) => match.itemId)).toEqual([kept]);
    await db().searchWatch.delete({ where: { id: first } });
    expect(await matchesOfSeq(firstSeq)).toHaveLength(0);
    expect((await matchesOfSeq(secondSeq)).map((match) => match.itemId)).toEqual([kept]);
    // The person's watches go by their keys' cascade, and the trigger takes those watches' matches.
    await db().person.delete({ where: { id: person.id } });
    expect(await db().searchWatch.count({ where: { id: second } })).toBe(0);
    expect(await matchesOfSeq(secondSeq)).toHaveLength(0);
  });
});
