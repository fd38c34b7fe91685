/**
 * The steady mixed load of the multi-instance tier, through the balancer: search (uncached),
 * quotes, checkouts (with an Idempotency-Key) and assistant purchases (a quote for the person, then
 * POST /purchases with an Idempotency-Key). Steps leave on a fixed schedule (open loop) so a slow
 * instance does not slow the load down. A 409 idempotency_key_in_use is the documented "the first
 * request is still running" answer: the client sends the same key again after Retry-After, as the
 * reference tells partners to (a request cut off by a killed instance holds its key until the claim
 * is abandoned, 60 s). Every answer is recorded with its start and end time.
 */
import { randomUUID } from "node:crypto";
import { checkoutRequest, quoteBody } from "../../../bench/lib/checkout-bodies";

export type Sample = {
  kind: "search" | "quote" | "checkout" | "purchase";
  /** POST without an Idempotency-Key: the balancer never replays it (docs/adr/0114-multi-instance-tier.md). */
  isUnkeyedPost: boolean;
  status: number;
  startedAt: number;
  endedAt: number;
  error?: string;
  /** 409 idempotency_key_in_use: the key's first request is still running, or died and its claim is not yet abandoned. */
  isKeyInUse?: boolean;
};

export type Buyer = { personId: string; token: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const startMixedLoad = (options: {
  baseUrl: string;
  /** Steps a second. */
  rate: number;
  partnerTokens: string[];
  buyers: Buyer[];
  /** At most this many purchases per person (a person may make 10 an hour). */
  purchasesPerBuyer: number;
  items: number[];
  searches: string[];
}) => {
  const samples: Sample[] = [];
  const purchaseIds = new Set<string>();
  const checkoutIds = new Set<string>();
  const bought = new Map<string, number>();
  let next = 0;
  const pick = <T>(list: readonly T[]) => list[next++ % list.length];
  const partner = () => `Bearer ${pick(options.partnerTokens)}`;

  const send = async (
    kind: Sample["kind"],
    path: string,
    init: { body?: string; headers?: Record<string, string>; authorization: string },
  ) => {
    const startedAt = Date.now();
    const isKeyed = Boolean(init.headers?.["idempotency-key"]);
    try {
      const response = await fetch(`${options.baseUrl}${path}`, {
        method: init.body ? "POST" : "GET",
        body: init.body,
        headers: {
          authorization: init.authorization,
          ...(init.body ? { "content-type": "application/json" } : { "cache-control": "no-cache" }),
          ...init.headers,
        },
        signal: AbortSignal.timeout(90_000),
      });
      const text = await response.text();
      samples.push({
        kind,
        isUnkeyedPost: Boolean(init.body) && !isKeyed,
        status: response.status,
        startedAt,
        endedAt: Date.now(),
        ...(response.status >= 500 ? { error: text.slice(0, 200) } : {}),
        ...(response.status === 409 && text.includes("idempotency_key_in_use")
          ? { isKeyInUse: true }
          : {}),
      });
      return {
        status: response.status,
        body: text,
        retryAfter: Number(response.headers.get("retry-after") ?? 1),
      };
    } catch (error) {
      samples.push({
        kind,
        isUnkeyedPost: Boolean(init.body) && !isKeyed,
        status: 0,
        startedAt,
        endedAt: Date.now(),
        error: String((error as Error).cause ?? error),
      });
      return { status: 0, body: "", retryAfter: 1 };
    }
  };

  /** A keyed POST, sent again with the same key while the first is still in flight (409 idempotency_key_in_use). */
  const sendKeyed = async (
    kind: Sample["kind"],
    path: string,
    init: { body: string; headers: Record<string, string>; authorization: string },
  ) => {
    const giveUpAt = Date.now() + 120_000;
    for (;;) {
      const answer = await send(kind, path, init);
      if (
        answer.status !== 409 ||
        !answer.body.includes("idempotency_key_in_use") ||
        Date.now() > giveUpAt
      )
        return answer;
      await sleep(answer.retryAfter * 1000);
    }
  };

  const quote = async (itemId: number, authorization: string) => {
    const made = await send("quote", "/api/v1/checkout/quotes", {
      body: quoteBody([itemId]),
      authorization,
    });
    return made.status === 201 ? (JSON.parse(made.body) as { quote_id: string }).quote_id : null;
  };

  let nextBuyer = 0;
  const buyerInTurn = () => {
    for (let tried = 0; tried < options.buyers.length; tried++) {
      const buyer = options.buyers[nextBuyer++ % options.buyers.length];
      if ((bought.get(buyer.personId) ?? 0) < options.purchasesPerBuyer) return buyer;
    }
    return null;
  };

  const steps = {
    search: async () =>
      void (await send("search", pick(options.searches), { authorization: partner() })),
    quote: async () => void (await quote(pick(options.items), partner())),
    checkout: async () => {
      const as = partner();
      const quoteId = await quote(pick(options.items), as);
      if (!quoteId) return;
      const request = checkoutRequest(quoteId);
      const answer = await sendKeyed("checkout", "/api/v1/checkout/sessions", {
        ...request,
        authorization: as,
      });
      if (answer.status === 201)
        checkoutIds.add((JSON.parse(answer.body) as { checkout_id: string }).checkout_id);
    },
    purchase: async () => {
      const buyer = buyerInTurn();
      if (!buyer) return steps.search();
      bought.set(buyer.personId, (bought.get(buyer.personId) ?? 0) + 1);
      const as = `Bearer ${buyer.token}`;
      const quoteId = await quote(pick(options.items), as);
      if (!quoteId) return;
      const answer = await sendKeyed("purchase", "/api/v1/purchases", {
        body: JSON.stringify({ quote_id: quoteId }),
        headers: { "idempotency-key": randomUUID() },
        authorization: as,
      });
      if (answer.status === 201 || answer.status === 202)
        purchaseIds.add((JSON.parse(answer.body) as { purchase_id: string }).purchase_id);
    },
  };
  // Of every 10 steps: 4 searches, 2 quotes, 2 checkouts, 2 purchases.
  const rotation = [
    steps.search,
    steps.quote,
    steps.purchase,
    steps.search,
    steps.checkout,
    steps.search,
    steps.quote,
    steps.purchase,
    steps.search,
    steps.checkout,
  ];

  let isStopping = false;
  const running = new Set<Promise<void>>();
  const loop = (async () => {
    const started = Date.now();
    for (let sent = 0; !isStopping; sent++) {
      const due = started + (sent * 1000) / options.rate;
      if (due > Date.now()) await sleep(due - Date.now());
      if (isStopping) break;
      // Open loop, bounded: a step that cannot leave because 64 are in flight is skipped, not queued.
      if (running.size >= 64) continue;
      const step = rotation[sent % rotation.length]().catch(() => undefined);
      running.add(step);
      void step.finally(() => running.delete(step));
    }
  })();

  return {
    samples,
    purchaseIds,
    checkoutIds,
    /** Stops sending and waits for every step in flight (keyed retries included). */
    stop: async () => {
      isStopping = true;
      await loop;
      await Promise.all(running);
    },
  };
};
