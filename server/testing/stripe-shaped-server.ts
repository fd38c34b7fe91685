/**
 * A local HTTP server that answers as Stripe's documented API, for the endpoints the Stripe
 * processor uses (Stripe is unreachable here): PaymentIntents (create with confirm and manual
 * capture, retrieve, capture, cancel, search by metadata), Refunds (create, list), Customers and
 * SetupIntents (create). Form-encoded bodies, `Idempotency-Key` replay (the same key with other
 * parameters is an `idempotency_error`), error objects shaped as Stripe documents them, and Stripe's
 * test PaymentMethods (`pm_card_visa`, `pm_card_chargeDeclined`, `pm_card_authenticationRequired`).
 * `delayNextResponse(ms)` holds the next write's answer after doing the work, as a timeout would;
 * `revokeKey(key)` rolls a key (401 from then on); a restricted key (`rk_test_…`) may only read (403).
 */
import { randomBytes } from "node:crypto";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json };
type Card = "visa" | "chargeDeclined" | "authenticationRequired";

const testMethods: Record<string, Card> = { pm_card_visa: "visa", pm_card_chargeDeclined: "chargeDeclined", pm_card_authenticationRequired: "authenticationRequired" };
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** `a[b]=1&c=2` -> `{ a: { b: "1" }, c: "2" }` (one level of brackets, all Stripe's calls here need). */
const parseForm = (text: string) => {
  const out: Record<string, string | Record<string, string>> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const nested = /^(\w+)\[(\w+)\]$/.exec(key);
    if (nested) out[nested[1]] = { ...(out[nested[1]] as Record<string, string> | undefined), [nested[2]]: value };
    else out[key] = value;
  }
  return out;
};

const error = (status: number, body: Json): Answer => ({ status, body: { error: { message: String(body.code ?? body.type), ...body } } });
const missing = (what: string, value: string) => error(404, { type: "invalid_request_error", code: "resource_missing", param: "id", message: `No such ${what}: '${value}'` });

export const startStripeShapedServer = async () => {
  const intents = new Map<string, Json>();
  const refunds: Json[] = [];
  /** Saved PaymentMethods (`pm_…` made by a SetupIntent) and the test card behind each. */
  const methods = new Map<string, { card: Card; customer: string }>();
  const replays = new Map<string, { request: string; answer: Answer }>();
  /** Keys rolled at the dashboard (revokeKey): Stripe answers them 401. */
  const revoked = new Set<string>();
  let delayMs = 0;
  let requests = 0;

  const cardOf = (paymentMethod: string) => testMethods[paymentMethod] ?? methods.get(paymentMethod)?.card;

  const createIntent = (params: Record<string, string | Record<string, string>>): Answer => {
    const card = cardOf(String(params.payment_method));
    if (!card) return missing("payment_method", String(params.payment_method));
    const isOffSession = params.off_session === "true";
    const intent: Json = {
      id: id("pi"), object: "payment_intent", amount: Number(params.amount), amount_capturable: 0, amount_received: 0, currency: params.currency,
      capture_method: params.capture_method ?? "automatic_async", customer: params.customer ?? null, description: params.description ?? null,
      metadata: params.metadata ?? {}, payment_method: params.payment_method, last_payment_error: null, next_action: null, livemode: false,
      created: Math.floor(Date.now() / 1000), status: "requires_confirmation",
    };
    intents.set(intent.id as string, intent);
    if (card === "visa") Object.assign(intent, { status: "requires_capture", amount_capturable: intent.amount });
    if (card === "authenticationRequired" && !isOffSession) Object.assign(intent, { status: "requires_action", next_action: { type: "use_stripe_sdk" } });
    if (card === "chargeDeclined" || (card === "authenticationRequired" && isOffSession)) {
      const code = card === "chargeDeclined" ? "card_declined" : "authentication_required";
      const lastError = { type: "card_error", code, ...(code === "card_declined" ? { decline_code: "generic_decline" } : { decline_code: "authentication_required" }), message: code };
      Object.assign(intent, { status: "requires_payment_method", last_payment_error: lastError });
      return error(402, { ...lastError, payment_intent: intent });
    }
    return { status: 200, body: intent };
  };

  const move = (intentId: string, from: string[], change: (intent: Json) => void): Answer => {
    const intent = intents.get(intentId);
    if (!intent) return missing("payment_intent", intentId);
    if (!from.includes(intent.status as string)) {
      return error(400, { type: "invalid_request_error", code: "payment_intent_unexpected_state", message: `This PaymentIntent's status is ${intent.status}.`, payment_intent: intent });
    }
    change(intent);
    return { status: 200, body: intent };
  };

  const write = (path: string, params: Record<string, string | Record<string, string>>): Answer => {
    if (path === "/v1/payment_intents") return createIntent(params);
    const action = /^\/v1\/payment_intents\/(\w+)\/(capture|cancel)$/.exec(path);
    if (action?.[2] === "capture") return move(action[1], ["requires_capture"], (intent) => Object.assign(intent, { status: "succeeded", amount_received: intent.amount, amount_capturable: 0 }));
    if (action?.[2] === "cancel") {
      return move(action[1], ["requires_capture", "requires_action", "requires_payment_method", "requires_confirmation"], (intent) =>
        Object.assign(intent, { status: "canceled", amount_capturable: 0, cancellation_reason: params.cancellation_reason ?? null }));
    }
    if (path === "/v1/refunds") {
      const intent = intents.get(String(params.payment_intent));
      if (intent?.status !== "succeeded") return error(400, { type: "invalid_request_error", code: "charge_not_refundable", message: "This PaymentIntent has no successful charge to refund." });
      const refunded = refunds.filter((refund) => refund.payment_intent === intent.id).reduce((sum, refund) => sum + (refund.amount as number), 0);
      const amount = params.amount ? Number(params.amount) : (intent.amount as number) - refunded;
      if (amount <= 0 || refunded + amount > (intent.amount as number)) return error(400, { type: "invalid_request_error", code: "amount_too_large", param: "amount", message: "Refund amount is greater than unrefunded amount on charge." });
      const refund = { id: id("re"), object: "refund", amount, currency: intent.currency, payment_intent: intent.id, status: "succeeded" };
      refunds.push(refund);
      return { status: 200, body: refund };
    }
    if (path === "/v1/customers") return { status: 200, body: { id: id("cus"), object: "customer", email: params.email ?? null } };
    if (path === "/v1/setup_intents") {
      const card = cardOf(String(params.payment_method));
      if (!card) return missing("payment_method", String(params.payment_method));
      const setup: Json = { id: id("seti"), object: "setup_intent", customer: params.customer, usage: params.usage ?? "off_session", status: "succeeded", payment_method: null, last_setup_error: null };
      if (card === "chargeDeclined") {
        Object.assign(setup, { status: "requires_payment_method" });
        return error(402, { type: "card_error", code: "card_declined", decline_code: "generic_decline", setup_intent: setup });
      }
      // Attaching a test PaymentMethod to a customer makes a new one, as at Stripe.
      const saved = id("pm");
      methods.set(saved, { card, customer: String(params.customer) });
      setup.payment_method = saved;
      return { status: 200, body: setup };
    }
    return error(404, { type: "invalid_request_error", message: `Unrecognized request URL (POST: ${path}).` });
  };

  const read = (url: URL): Answer => {
    if (url.pathname === "/v1/payment_intents/search") {
      const match = /^metadata\['(\w+)'\]:'([^']*)'$/.exec(url.searchParams.get("query") ?? "");
      if (!match) return error(400, { type: "invalid_request_error", code: "parameter_invalid_string", param: "query", message: "Unsupported search query." });
      const data = [...intents.values()].filter((intent) => (intent.metadata as Record<string, string>)[match[1]] === match[2]);
      return { status: 200, body: { object: "search_result", data, has_more: false, next_page: null, url: "/v1/payment_intents/search" } };
    }
    const intentId = /^\/v1\/payment_intents\/(\w+)$/.exec(url.pathname)?.[1];
    if (intentId) return intents.has(intentId) ? { status: 200, body: intents.get(intentId)! } : missing("payment_intent", intentId);
    if (url.pathname === "/v1/refunds") {
      const data = refunds.filter((refund) => refund.payment_intent === url.searchParams.get("payment_intent"));
      return { status: 200, body: { object: "list", data, has_more: false, url: "/v1/refunds" } };
    }
    return error(404, { type: "invalid_request_error", message: `Unrecognized request URL (GET: ${url.pathname}).` });
  };

  const respond = async (request: IncomingMessage, response: ServerResponse) => {
    requests++;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(request.url ?? "/", "http://stripe.local");
    const send = (answer: Answer, headers: Record<string, string> = {}) => {
      response.writeHead(answer.status, { "content-type": "application/json", "request-id": id("req"), ...headers });
      response.end(JSON.stringify(answer.body));
    };
    const apiKey = /^Bearer ((sk|rk)_test_\w+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!apiKey || revoked.has(apiKey)) return send(error(401, { type: "invalid_request_error", message: "Invalid API Key provided." }));
    if (request.method !== "POST") return send(read(url));
    // A restricted key here may only read, as a Stripe restricted key without write permissions.
    if (apiKey.startsWith("rk_")) return send(error(403, { type: "invalid_request_error", message: "The provided key does not have the required permissions for this endpoint." }));
    const key = request.headers["idempotency-key"] as string | undefined;
    const signature = `${url.pathname} ${text}`;
    const previous = key ? replays.get(key) : undefined;
    if (previous) {
      if (previous.request !== signature) {
        return send(error(400, { type: "idempotency_error", message: "Keys for idempotent requests can only be used with the same parameters they were first used with." }));
      }
      return send(previous.answer, { "idempotent-replayed": "true" });
    }
    const answer = write(url.pathname, parseForm(text));
    if (key) replays.set(key, { request: signature, answer });
    const delay = delayMs;
    delayMs = 0;
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    if (!response.destroyed) send(answer);
  };

  const server = createServer((request, response) => void respond(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** `STRIPE_API_BASE` for this server. */
    url: `http://127.0.0.1:${port}`,
    intents,
    refunds,
    requestCount: () => requests,
    /** The next write does its work, then answers only after `ms` (longer than the client's timeout: an unknown outcome). */
    delayNextResponse: (ms: number) => {
      delayMs = ms;
    },
    /** The key is rolled (an operator rotated it): from now on every call with it answers 401. */
    revokeKey: (key: string) => void revoked.add(key),
    /** What Stripe.js does in the browser after 3-D Secure succeeds. */
    completeAuthentication: (intentId: string) => Object.assign(intents.get(intentId)!, { status: "requires_capture", next_action: null }),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
};
