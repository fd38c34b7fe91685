/**
 * A local HTTP server that answers as Stripe's documented API, for the endpoints the Stripe
 * processor and Stripe.js (through the tests' stand-in, e2e/stripe-js-stand-in) use, since Stripe is
 * unreachable here:
 * - with the secret key: PaymentIntents (create, confirmed at once with a payment_method or left
 *   `requires_payment_method` for the browser, retrieve, capture, cancel, search by metadata),
 *   Refunds (create, list), Customers (create), SetupIntents (create, retrieve), PaymentMethods
 *   (retrieve, detach); Connect's accounts and transfers (stripe-shaped-connect.ts);
 * - with the publishable key and the intent's client_secret, as Stripe.js calls them: retrieve and
 *   confirm a PaymentIntent or a SetupIntent with `payment_method_data` (a card's test number, or
 *   Link) and a `return_url`;
 * - 3-D Secure as a redirect: `next_action.redirect_to_url` is a local page (GET /3ds/:id) whose
 *   buttons approve or fail, then redirect to the return_url with `payment_intent` (or
 *   `setup_intent`), its client secret and `redirect_status`.
 * Form-encoded bodies, `Idempotency-Key` replay (the same key with other parameters is an
 * `idempotency_error`), error objects shaped as Stripe documents them, and Stripe's test cards and
 * PaymentMethods (`pm_card_visa`, `pm_card_chargeDeclined`, `pm_card_authenticationRequired`;
 * 4242 4242 4242 4242, 4000 0000 0000 0002, 4000 0025 0000 3155). `delayNextResponse(ms)` holds the
 * next write's answer after doing the work, as a timeout would; `revokeKey(key)` rolls a key (401 from
 * then on); a restricted key (`rk_test_…`) may only read (403); `failNextWrites(n, 500 | 429)`
 * answers the next writes as Stripe's internal error or rate limit, before doing anything;
 * `limitRate({ perSecond, perEndpoint })` refuses what goes beyond Stripe's rate limits (429);
 * `makeRefundsWaitAtBank(true)` and `settleRefund(id, outcome)` play a bank that settles a refund
 * days later, or sends it back (also after it succeeded).
 */
import { randomBytes } from "node:crypto";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { stripeShapedConnect } from "./stripe-shaped-connect";

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json; redirect?: string };
type Card = "visa" | "chargeDeclined" | "authenticationRequired" | "link";
/** A form body: `a[b][c]=1` nests; arrays (`expand[0]=x`) are objects keyed by index. */
type Form = { [key: string]: string | Form };

const testMethods: Record<string, Card> = {
  pm_card_visa: "visa",
  pm_card_chargeDeclined: "chargeDeclined",
  pm_card_authenticationRequired: "authenticationRequired",
};
/** Stripe's test card numbers (https://docs.stripe.com/testing) this server knows. */
const testNumbers: Record<string, Card> = {
  "4242424242424242": "visa",
  "4000000000000002": "chargeDeclined",
  "4000002500003155": "authenticationRequired",
  "4000002760003184": "authenticationRequired",
};
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** `a[b]=1&c=2` -> `{ a: { b: "1" }, c: "2" }`, at any depth. */
const parseForm = (text: string) => {
  const out: Form = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = [
      key.replace(/\[.*$/, ""),
      ...[...key.matchAll(/\[([^\]]*)\]/g)].map((match) => match[1]),
    ];
    let node = out;
    path.slice(0, -1).forEach((segment) => {
      if (typeof node[segment] !== "object") node[segment] = {};
      node = node[segment] as Form;
    });
    node[path[path.length - 1]] = value;
  }
  return out;
};
const text = (value: string | Form | undefined) => (typeof value === "string" ? value : undefined);
const form = (value: string | Form | undefined) => (typeof value === "object" ? value : undefined);
const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const error = (status: number, body: Json): Answer => ({
  status,
  body: { error: { message: String(body.code ?? body.type), ...body } },
});
const missing = (what: string, value: string) =>
  error(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    param: "id",
    message: `No such ${what}: '${value}'`,
  });

/** Who called: the secret key (the service), or the publishable key (Stripe.js in the browser, which may only touch an intent by its client_secret). */
type Caller = "secret" | "publishable";

type SavedMethod = {
  card: Card;
  customer: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
};

export const startStripeShapedServer = async () => {
  const intents = new Map<string, Json>();
  const setups = new Map<string, Json>();
  const refunds: Json[] = [];
  const connect = stripeShapedConnect(intents);
  /** PaymentMethods made here (`pm_…`: by a SetupIntent, or from `payment_method_data`), the test card behind each. */
  const methods = new Map<string, SavedMethod>();
  const replays = new Map<string, { request: string; answer: Answer }>();
  /** Keys rolled at the dashboard (revokeKey): Stripe answers them 401. */
  const revoked = new Set<string>();
  let delayMs = 0;
  let dropRequests = 0;
  let failures: { count: number; status: 429 | 500; keys: string[] } = {
    count: 0,
    status: 500,
    keys: [],
  };
  let requests = 0;
  let baseUrl = "";
  /**
   * Stripe's rate limiter as `limitRate` sets it: at most `perSecond` API requests in any 1,000 ms,
   * and `perEndpoint` to one method and path (ids taken out); beyond, 429 and nothing done.
   */
  let rateLimit: { perSecond: number; perEndpoint: number } | undefined;
  const sent = new Map<string, number[]>();
  let rateLimited = 0;
  /** Refunds made from now on wait at the bank (`pending`) until `settleRefund`. */
  let refundsWaitAtBank = false;
  const isRateLimited = (method: string, path: string) => {
    if (!path.startsWith("/v1/") || !rateLimit) return false;
    const endpoint = `${method} ${path.replace(/\/(pi|cus|pm|seti|ch|re|tr|trr|po|acct|dp|evt)_\w+/g, "/{id}")}`;
    const now = Date.now();
    const recent = (key: string) => {
      const times = (sent.get(key) ?? []).filter((time) => time > now - 1_000);
      sent.set(key, times);
      return times;
    };
    const all = recent("*");
    const ofEndpoint = recent(endpoint);
    if (all.length >= rateLimit.perSecond || ofEndpoint.length >= rateLimit.perEndpoint) {
      rateLimited++;
      return true;
    }
    all.push(now);
    ofEndpoint.push(now);
    return false;
  };

  const cardOf = (paymentMethod: string) =>
    testMethods[paymentMethod] ?? methods.get(paymentMethod)?.card;

  const cardDeclined = (
    code:
      | "card_declined"
      | "authentication_required"
      | "payment_intent_authentication_failure"
      | "setup_intent_authentication_failure",
    declineCode?: string,
  ) => ({
    type: "card_error",
    code,
    ...(declineCode ? { decline_code: declineCode } : {}),
    message:
      code === "card_declined"
        ? "Your card was declined."
        : code === "authentication_required"
          ? "Your card requires authentication."
          : "We are unable to authenticate your payment method.",
  });

  /** A PaymentMethod from Stripe.js's `payment_method_data` (a test card number, or Link), or a known `pm_…`. */
  const methodFrom = (params: Form): { id: string } | Answer => {
    const data = form(params.payment_method_data);
    if (!data) {
      const given = text(params.payment_method);
      if (!given || !cardOf(given)) return missing("payment_method", String(given));
      return { id: given };
    }
    const type = text(data.type);
    if (type === "link") {
      const saved = id("pm");
      methods.set(saved, {
        card: "link",
        customer: null,
        brand: "link",
        last4: "4242",
        expMonth: 12,
        expYear: 2034,
      });
      return { id: saved };
    }
    if (type !== "card")
      return error(400, {
        type: "invalid_request_error",
        code: "parameter_invalid_string",
        param: "payment_method_data[type]",
        message: `Invalid payment_method_data[type]: ${type}`,
      });
    const card = form(data.card) ?? {};
    const number = (text(card.number) ?? "").replace(/\D/g, "");
    const expMonth = Number(text(card.exp_month));
    const expYear = Number(text(card.exp_year));
    if (!/^\d{12,19}$/.test(number))
      return error(402, {
        type: "card_error",
        code: "incorrect_number",
        param: "number",
        message: "Your card number is incorrect.",
      });
    if (!(expMonth >= 1 && expMonth <= 12) || !(expYear >= 2000))
      return error(402, {
        type: "card_error",
        code: "invalid_expiry_month",
        param: "exp_month",
        message: "Your card's expiration date is invalid.",
      });
    if (!/^\d{3,4}$/.test(text(card.cvc) ?? ""))
      return error(402, {
        type: "card_error",
        code: "incorrect_cvc",
        param: "cvc",
        message: "Your card's security code is incorrect.",
      });
    const known = testNumbers[number];
    if (!known)
      return error(402, {
        ...cardDeclined("card_declined", "test_mode_live_card"),
        message: "Your card was declined. Your request was in test mode, but used a non test card.",
      });
    const saved = id("pm");
    methods.set(saved, {
      card: known,
      customer: null,
      brand: number.startsWith("4") ? "visa" : "unknown",
      last4: number.slice(-4),
      expMonth,
      expYear,
    });
    return { id: saved };
  };

  /** Where 3-D Secure sends the browser: this server's page for the intent, which returns to `return_url`. */
  const redirectAction = (intent: Json, returnUrl: string) => ({
    type: "redirect_to_url",
    redirect_to_url: {
      url: `${baseUrl}/3ds/${intent.id}?return_url=${encodeURIComponent(returnUrl)}`,
      return_url: returnUrl,
    },
  });

  /** Charges (or, for a SetupIntent, saves) `paymentMethod` on the intent: authorized, declined, or awaiting 3-D Secure. */
  const applyMethod = (
    intent: Json,
    paymentMethod: string,
    options: { isOffSession: boolean; returnUrl?: string },
  ): Answer => {
    const card = cardOf(paymentMethod)!;
    const isSetup = intent.object === "setup_intent";
    Object.assign(intent, {
      payment_method: paymentMethod,
      next_action: null,
      [isSetup ? "last_setup_error" : "last_payment_error"]: null,
    });
    if (card === "chargeDeclined" || (card === "authenticationRequired" && options.isOffSession)) {
      const lastError =
        card === "chargeDeclined"
          ? cardDeclined("card_declined", "generic_decline")
          : cardDeclined("authentication_required", "authentication_required");
      Object.assign(intent, {
        status: "requires_payment_method",
        [isSetup ? "last_setup_error" : "last_payment_error"]: {
          ...lastError,
          payment_method: { id: paymentMethod, object: "payment_method", type: "card" },
        },
      });
      return error(402, { ...lastError, [isSetup ? "setup_intent" : "payment_intent"]: intent });
    }
    if (card === "authenticationRequired") {
      Object.assign(intent, {
        status: "requires_action",
        next_action: options.returnUrl
          ? redirectAction(intent, options.returnUrl)
          : { type: "use_stripe_sdk" },
      });
      return { status: 200, body: intent };
    }
    succeed(intent);
    return { status: 200, body: intent };
  };

  /** The intent's success: a PaymentIntent is held (manual capture) or paid; a SetupIntent attaches its PaymentMethod to the customer. */
  const succeed = (intent: Json) => {
    if (intent.object === "setup_intent") {
      const method = methods.get(intent.payment_method as string);
      if (method) method.customer = (intent.customer as string | null) ?? null;
      Object.assign(intent, { status: "succeeded", next_action: null });
      return;
    }
    // The charge exists from the authorization on (a transfer's source_transaction names it).
    intent.latest_charge = id("ch");
    if (intent.capture_method === "manual")
      Object.assign(intent, {
        status: "requires_capture",
        amount_capturable: intent.amount,
        next_action: null,
      });
    else {
      Object.assign(intent, {
        status: "succeeded",
        amount_received: intent.amount,
        next_action: null,
      });
      const charge = { id: intent.latest_charge, object: "charge", payment_intent: intent.id };
      connect.recordBalance("charge", charge, intent.amount as number);
    }
  };

  const createIntent = (params: Form): Answer => {
    const automatic = form(params.automatic_payment_methods);
    const intent: Json = {
      id: id("pi"),
      object: "payment_intent",
      amount: Number(params.amount),
      amount_capturable: 0,
      amount_received: 0,
      currency: params.currency,
      capture_method: params.capture_method ?? "automatic_async",
      customer: params.customer ?? null,
      description: params.description ?? null,
      metadata: params.metadata ?? {},
      payment_method: null,
      last_payment_error: null,
      next_action: null,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
      status: "requires_payment_method",
      automatic_payment_methods: automatic
        ? {
            enabled: automatic.enabled === "true",
            ...(automatic.allow_redirects ? { allow_redirects: automatic.allow_redirects } : {}),
          }
        : null,
      payment_method_types:
        automatic?.enabled === "true" && automatic.allow_redirects !== "never"
          ? ["card", "link"]
          : ["card"],
    };
    intent.client_secret = `${intent.id}_secret_${randomBytes(12).toString("hex")}`;
    const paymentMethod = text(params.payment_method);
    if (paymentMethod && !cardOf(paymentMethod)) return missing("payment_method", paymentMethod);
    intents.set(intent.id as string, intent);
    if (!paymentMethod) return { status: 200, body: intent };
    if (params.confirm !== "true") {
      Object.assign(intent, { payment_method: paymentMethod, status: "requires_confirmation" });
      return { status: 200, body: intent };
    }
    return applyMethod(intent, paymentMethod, {
      isOffSession: params.off_session === "true",
      returnUrl: text(params.return_url),
    });
  };

  const createSetup = (params: Form): Answer => {
    const setup: Json = {
      id: id("seti"),
      object: "setup_intent",
      customer: params.customer ?? null,
      usage: params.usage ?? "off_session",
      status: "requires_payment_method",
      payment_method: null,
      last_setup_error: null,
      next_action: null,
      metadata: params.metadata ?? {},
      livemode: false,
      created: Math.floor(Date.now() / 1000),
      payment_method_types: ["card"],
    };
    setup.client_secret = `${setup.id}_secret_${randomBytes(12).toString("hex")}`;
    const paymentMethod = text(params.payment_method);
    if (paymentMethod && !cardOf(paymentMethod)) return missing("payment_method", paymentMethod);
    if (paymentMethod && cardOf(paymentMethod) !== "link") {
      // Attaching a test PaymentMethod to a customer makes a new one, as at Stripe.
      const copy = id("pm");
      const known = methods.get(paymentMethod);
      methods.set(
        copy,
        known
          ? { ...known }
          : {
              card: cardOf(paymentMethod)!,
              customer: null,
              brand: "visa",
              last4: "4242",
              expMonth: 12,
              expYear: 2034,
            },
      );
      setups.set(setup.id as string, setup);
      if (params.confirm !== "true") {
        Object.assign(setup, { payment_method: copy, status: "requires_confirmation" });
        return { status: 200, body: setup };
      }
      // Unlike Stripe, a SetupIntent the server confirms with the 3-D Secure card is saved without
      // asking: the tests' way to a saved card the bank later asks to authenticate off-session. The
      // service never sends one (card-entry.ts, refuseAuthenticationWithStripe).
      if (cardOf(copy) === "chargeDeclined")
        return applyMethod(setup, copy, { isOffSession: false });
      setup.payment_method = copy;
      succeed(setup);
      return { status: 200, body: setup };
    }
    setups.set(setup.id as string, setup);
    return { status: 200, body: setup };
  };

  /** POST /v1/{payment,setup}_intents/:id/confirm, as Stripe.js sends it (publishable key + client_secret) or the service (secret key). */
  const confirm = (
    store: Map<string, Json>,
    kind: "payment_intent" | "setup_intent",
    intentId: string,
    params: Form,
    caller: Caller,
  ): Answer => {
    const intent = store.get(intentId);
    if (!intent || (caller === "publishable" && params.client_secret !== intent.client_secret))
      return missing(kind, intentId);
    if (!["requires_payment_method", "requires_confirmation"].includes(intent.status as string)) {
      return error(400, {
        type: "invalid_request_error",
        code: `${kind}_unexpected_state`,
        message: `This ${kind === "payment_intent" ? "PaymentIntent" : "SetupIntent"}'s status is ${intent.status}.`,
        [kind]: intent,
      });
    }
    const paymentMethod =
      params.payment_method_data || params.payment_method
        ? methodFrom(params)
        : intent.payment_method
          ? { id: intent.payment_method as string }
          : undefined;
    if (!paymentMethod)
      return error(400, {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: "You cannot confirm this PaymentIntent because it's missing a payment method.",
      });
    if ("status" in paymentMethod) {
      // A refused card (a live number in test mode, a mistyped one) leaves the intent awaiting another.
      const lastError = (paymentMethod.body as { error: Json }).error;
      Object.assign(intent, {
        status: "requires_payment_method",
        [kind === "setup_intent" ? "last_setup_error" : "last_payment_error"]: lastError,
      });
      return error(paymentMethod.status, { ...lastError, [kind]: intent });
    }
    if (
      cardOf(paymentMethod.id) === "link" &&
      !(intent.payment_method_types as string[]).includes("link")
    ) {
      return error(400, {
        type: "invalid_request_error",
        code: "payment_intent_incompatible_payment_method",
        message: "The PaymentMethod provided (link) is not allowed for this PaymentIntent.",
      });
    }
    return applyMethod(intent, paymentMethod.id, {
      isOffSession: params.off_session === "true",
      returnUrl: text(params.return_url),
    });
  };

  const move = (intentId: string, from: string[], change: (intent: Json) => void): Answer => {
    const intent = intents.get(intentId);
    if (!intent) return missing("payment_intent", intentId);
    if (!from.includes(intent.status as string)) {
      return error(400, {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: `This PaymentIntent's status is ${intent.status}.`,
        payment_intent: intent,
      });
    }
    change(intent);
    return { status: 200, body: intent };
  };

  const paymentMethodBody = (methodId: string, method: SavedMethod) => ({
    id: methodId,
    object: "payment_method",
    type: method.card === "link" ? "link" : "card",
    customer: method.customer,
    livemode: false,
    ...(method.card === "link"
      ? { link: { email: null } }
      : {
          card: {
            brand: method.brand,
            last4: method.last4,
            exp_month: method.expMonth,
            exp_year: method.expYear,
            funding: "credit",
            country: "US",
          },
        }),
  });

  /** Writes Stripe.js may make with the publishable key: confirming an intent it holds the client_secret of. */
  const publishableWrite = (path: string, params: Form): Answer => {
    const paying = /^\/v1\/payment_intents\/(\w+)\/confirm$/.exec(path);
    if (paying) return confirm(intents, "payment_intent", paying[1], params, "publishable");
    const saving = /^\/v1\/setup_intents\/(\w+)\/confirm$/.exec(path);
    if (saving) return confirm(setups, "setup_intent", saving[1], params, "publishable");
    return error(401, {
      type: "invalid_request_error",
      message:
        "This API call cannot be made with a publishable API key. Please use a secret API key.",
    });
  };

  const write = (path: string, params: Form): Answer => {
    if (path === "/v1/payment_intents") return createIntent(params);
    const connected = connect.write(path, params);
    if (connected) return connected;
    const action = /^\/v1\/payment_intents\/(\w+)\/(capture|cancel|confirm)$/.exec(path);
    if (action?.[2] === "confirm")
      return confirm(intents, "payment_intent", action[1], params, "secret");
    if (action?.[2] === "capture")
      return move(action[1], ["requires_capture"], (intent) => {
        Object.assign(intent, {
          status: "succeeded",
          amount_received: intent.amount,
          amount_capturable: 0,
        });
        const charge = { id: intent.latest_charge, object: "charge", payment_intent: intent.id };
        connect.recordBalance("charge", charge, intent.amount as number);
      });
    if (action?.[2] === "cancel") {
      return move(
        action[1],
        ["requires_capture", "requires_action", "requires_payment_method", "requires_confirmation"],
        (intent) =>
          Object.assign(intent, {
            status: "canceled",
            amount_capturable: 0,
            next_action: null,
            cancellation_reason: params.cancellation_reason ?? null,
          }),
      );
    }
    if (path === "/v1/refunds") {
      const intent = intents.get(String(params.payment_intent));
      if (intent?.status !== "succeeded")
        return error(400, {
          type: "invalid_request_error",
          code: "charge_not_refundable",
          message: "This PaymentIntent has no successful charge to refund.",
        });
      const refunded = refunds
        .filter((refund) => refund.payment_intent === intent.id && refund.status !== "failed")
        .reduce((sum, refund) => sum + (refund.amount as number), 0);
      const amount = params.amount ? Number(params.amount) : (intent.amount as number) - refunded;
      if (amount <= 0 || refunded + amount > (intent.amount as number))
        return error(400, {
          type: "invalid_request_error",
          code: "amount_too_large",
          param: "amount",
          message: "Refund amount is greater than unrefunded amount on charge.",
        });
      const refund = {
        id: id("re"),
        object: "refund",
        amount,
        currency: intent.currency,
        payment_intent: intent.id,
        charge: intent.latest_charge ?? null,
        status: refundsWaitAtBank ? "pending" : "succeeded",
        failure_reason: null,
        metadata: params.metadata ?? {},
        created: Math.floor(Date.now() / 1000),
      };
      refunds.push(refund);
      connect.recordBalance("refund", refund, -amount);
      return { status: 200, body: refund };
    }
    if (path === "/v1/customers")
      return {
        status: 200,
        body: { id: id("cus"), object: "customer", email: params.email ?? null },
      };
    if (path === "/v1/setup_intents") return createSetup(params);
    const setupConfirm = /^\/v1\/setup_intents\/(\w+)\/confirm$/.exec(path);
    if (setupConfirm) return confirm(setups, "setup_intent", setupConfirm[1], params, "secret");
    const detach = /^\/v1\/payment_methods\/(\w+)\/detach$/.exec(path);
    if (detach) {
      const method = methods.get(detach[1]);
      if (!method) return missing("payment_method", detach[1]);
      if (!method.customer)
        return error(400, {
          type: "invalid_request_error",
          message:
            "The payment method you provided is not attached to a customer so detachment is impossible.",
        });
      method.customer = null;
      return { status: 200, body: paymentMethodBody(detach[1], method) };
    }
    return error(404, {
      type: "invalid_request_error",
      message: `Unrecognized request URL (POST: ${path}).`,
    });
  };

  const read = (url: URL, caller: Caller): Answer => {
    const connected = caller === "secret" ? connect.read(url) : undefined;
    if (connected) return connected;
    const intentId = /^\/v1\/payment_intents\/(\w+)$/.exec(url.pathname)?.[1];
    const setupId = /^\/v1\/setup_intents\/(\w+)$/.exec(url.pathname)?.[1];
    if (caller === "publishable") {
      // Stripe.js retrieves an intent by its client_secret, and nothing else.
      const found = intentId ? intents.get(intentId) : setupId ? setups.get(setupId) : undefined;
      if (!intentId && !setupId)
        return error(401, {
          type: "invalid_request_error",
          message:
            "This API call cannot be made with a publishable API key. Please use a secret API key.",
        });
      if (!found || found.client_secret !== url.searchParams.get("client_secret"))
        return missing(intentId ? "payment_intent" : "setup_intent", (intentId ?? setupId)!);
      return { status: 200, body: found };
    }
    if (url.pathname === "/v1/payment_intents/search") {
      const match = /^metadata\['(\w+)'\]:'([^']*)'$/.exec(url.searchParams.get("query") ?? "");
      if (!match)
        return error(400, {
          type: "invalid_request_error",
          code: "parameter_invalid_string",
          param: "query",
          message: "Unsupported search query.",
        });
      const data = [...intents.values()].filter(
        (intent) => (intent.metadata as Record<string, string>)[match[1]] === match[2],
      );
      return {
        status: 200,
        body: {
          object: "search_result",
          data,
          has_more: false,
          next_page: null,
          url: "/v1/payment_intents/search",
        },
      };
    }
    if (intentId)
      return intents.has(intentId)
        ? { status: 200, body: intents.get(intentId)! }
        : missing("payment_intent", intentId);
    if (setupId)
      return setups.has(setupId)
        ? { status: 200, body: setups.get(setupId)! }
        : missing("setup_intent", setupId);
    const methodId = /^\/v1\/payment_methods\/(\w+)$/.exec(url.pathname)?.[1];
    if (methodId) {
      const method = methods.get(methodId);
      return method
        ? { status: 200, body: paymentMethodBody(methodId, method) }
        : missing("payment_method", methodId);
    }
    if (url.pathname === "/v1/refunds") {
      const data = refunds.filter(
        (refund) => refund.payment_intent === url.searchParams.get("payment_intent"),
      );
      return { status: 200, body: { object: "list", data, has_more: false, url: "/v1/refunds" } };
    }
    return error(404, {
      type: "invalid_request_error",
      message: `Unrecognized request URL (GET: ${url.pathname}).`,
    });
  };

  /** The 3-D Secure page (the bank's, at Stripe's hooks.stripe.com in real life): approve or fail, then back to the return_url. */
  const authenticationPage = (url: URL, method: string, params: Form, response: ServerResponse) => {
    const match = /^\/3ds\/(\w+)(?:\/(complete|fail))?$/.exec(url.pathname);
    const intentId = match?.[1] ?? "";
    const intent = intents.get(intentId) ?? setups.get(intentId);
    const returnUrl = url.searchParams.get("return_url") ?? "";
    if (!intent || !/^https?:\/\//.test(returnUrl)) {
      response.writeHead(404, { "content-type": "text/plain" });
      return response.end("No such authentication.");
    }
    if (method === "GET" && !match?.[2]) {
      const action = (result: string) =>
        `/3ds/${intentId}/${result}?return_url=${encodeURIComponent(returnUrl)}`;
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return response.end(`<!doctype html><html><head><title>3-D Secure test page</title></head><body>
<h1>3-D Secure test payment page</h1><p>${escapeHtml(String(intent.amount ?? "Save card"))} ${escapeHtml(String(intent.currency ?? ""))}</p>
<form method="post" action="${escapeHtml(action("complete"))}"><button type="submit">Complete authentication</button></form>
<form method="post" action="${escapeHtml(action("fail"))}"><button type="submit">Fail authentication</button></form></body></html>`);
    }
    void params;
    const isSetup = intent.object === "setup_intent";
    if (intent.status === "requires_action") {
      if (match?.[2] === "complete") succeed(intent);
      else {
        const failure = cardDeclined(
          isSetup ? "setup_intent_authentication_failure" : "payment_intent_authentication_failure",
        );
        Object.assign(intent, {
          status: "requires_payment_method",
          next_action: null,
          [isSetup ? "last_setup_error" : "last_payment_error"]: failure,
        });
      }
    }
    const back = new URL(returnUrl);
    back.searchParams.set(isSetup ? "setup_intent" : "payment_intent", intentId);
    back.searchParams.set(
      isSetup ? "setup_intent_client_secret" : "payment_intent_client_secret",
      intent.client_secret as string,
    );
    back.searchParams.set("redirect_status", match?.[2] === "complete" ? "succeeded" : "failed");
    response.writeHead(303, { location: back.toString() });
    response.end();
  };

  const respond = async (request: IncomingMessage, response: ServerResponse) => {
    requests++;
    if (dropRequests > 0) {
      // Lost before Stripe saw it (no idempotent result is saved): the client sees a connection error.
      dropRequests--;
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(request.url ?? "/", "http://stripe.local");
    // Stripe.js calls the API from the page's origin (form-encoded, so no preflight is needed).
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "content-type, authorization, stripe-version",
    };
    const send = (answer: Answer, headers: Record<string, string> = {}) => {
      response.writeHead(answer.status, {
        "content-type": "application/json",
        "request-id": id("req"),
        ...cors,
        ...headers,
      });
      response.end(JSON.stringify(answer.body));
    };
    if (request.method === "OPTIONS") {
      response.writeHead(204, { ...cors, "access-control-allow-methods": "GET, POST" });
      return response.end();
    }
    if (url.pathname.startsWith("/3ds/"))
      return authenticationPage(url, request.method ?? "GET", parseForm(body), response);
    if (rateLimit && isRateLimited(request.method ?? "GET", url.pathname))
      return send(
        error(429, {
          type: "invalid_request_error",
          code: "rate_limit",
          message: "Too many requests hit the API too quickly.",
        }),
        { "stripe-rate-limited-reason": "global-rate" },
      );
    if (failures.count > 0 && request.method === "POST") {
      // Refused before any work, as Stripe's 500 (api_error) or 429 (rate limit) is: no result is
      // saved under the key, so a retry with it does the work.
      failures.count--;
      failures.keys.push(String(request.headers["idempotency-key"] ?? ""));
      return send(
        failures.status === 500
          ? error(500, { type: "api_error", message: "An unknown error occurred." })
          : error(429, {
              type: "invalid_request_error",
              code: "rate_limit",
              message: "Too many requests hit the API too quickly.",
            }),
        failures.status === 429 ? { "stripe-rate-limited-reason": "global-rate" } : {},
      );
    }
    const params = parseForm(body);
    const publishable = text(params.key) ?? url.searchParams.get("key") ?? "";
    const apiKey = /^Bearer ((sk|rk)_test_\w+)$/.exec(request.headers.authorization ?? "")?.[1];
    const caller: Caller | undefined =
      apiKey && !revoked.has(apiKey)
        ? "secret"
        : /^pk_test_\w+$/.test(publishable)
          ? "publishable"
          : undefined;
    if (!caller)
      return send(
        error(401, { type: "invalid_request_error", message: "Invalid API Key provided." }),
      );
    if (request.method !== "POST") return send(read(url, caller));
    if (caller === "publishable") return send(publishableWrite(url.pathname, params));
    // A restricted key here may only read, as a Stripe restricted key without write permissions.
    if (apiKey?.startsWith("rk_"))
      return send(
        error(403, {
          type: "invalid_request_error",
          message: "The provided key does not have the required permissions for this endpoint.",
        }),
      );
    const key = request.headers["idempotency-key"] as string | undefined;
    const signature = `${url.pathname} ${body}`;
    const previous = key ? replays.get(key) : undefined;
    if (previous) {
      if (previous.request !== signature) {
        return send(
          error(400, {
            type: "idempotency_error",
            message:
              "Keys for idempotent requests can only be used with the same parameters they were first used with.",
          }),
        );
      }
      return send(previous.answer, { "idempotent-replayed": "true" });
    }
    const answer = write(url.pathname, params);
    if (key) replays.set(key, { request: signature, answer: structuredClone(answer) });
    const delay = delayMs;
    delayMs = 0;
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    if (!response.destroyed) send(answer);
  };

  const server = createServer((request, response) => void respond(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    /** `STRIPE_API_BASE` for this server. */
    url: baseUrl,
    intents,
    setups,
    methods,
    refunds,
    /** Connect: the transfers made, and `addAccount(id)` for a store's connected account. */
    transfers: connect.transfers,
    reversals: connect.reversals,
    balance: connect.balance,
    openDispute: connect.openDispute,
    closeDispute: connect.closeDispute,
    addAccount: connect.addAccount,
    requestCount: () => requests,
    /** From now on, Stripe's rate limiter: at most `perSecond` API requests in any second, `perEndpoint` to one endpoint. */
    limitRate: (limits: { perSecond: number; perEndpoint: number } | undefined) => {
      rateLimit = limits;
      sent.clear();
      rateLimited = 0;
    },
    /** Requests answered 429 by `limitRate`'s limiter since it was set. */
    rateLimitedCount: () => rateLimited,
    /** Stripe forgets the Idempotency-Keys it holds (it keeps each a day): the same key makes a new object. */
    forgetIdempotencyKeys: () => replays.clear(),
    /** From now on, refunds are made `pending` (as a bank that takes days), or `succeeded` at once again. */
    makeRefundsWaitAtBank: (wait: boolean) => {
      refundsWaitAtBank = wait;
    },
    /**
     * What the bank does with a refund, days later: `succeeded`, or `failed` (also one that
     * succeeded: a closed card sends it back) with Stripe's `failure_reason`, its amount returned
     * to the balance as a `refund_failure` transaction. The refund as it now stands (send the event).
     */
    settleRefund: (
      refundId: string,
      outcome: { status: "succeeded" } | { status: "failed"; failureReason: string },
    ) => {
      const refund = refunds.find((each) => each.id === refundId)!;
      Object.assign(refund, {
        status: outcome.status,
        failure_reason: outcome.status === "failed" ? outcome.failureReason : null,
      });
      if (outcome.status === "failed")
        connect.recordBalance("refund_failure", refund, refund.amount as number);
      return structuredClone(refund);
    },
    /** The next write does its work, then answers only after `ms` (longer than the client's timeout: an unknown outcome). */
    delayNextResponse: (ms: number) => {
      delayMs = ms;
    },
    /** The key is rolled (an operator rotated it): from now on every call with it answers 401. */
    revokeKey: (key: string) => void revoked.add(key),
    /** The next `count` requests never reach "Stripe": their connection drops, as a network failure would. */
    dropNextRequests: (count: number) => {
      dropRequests = count;
    },
    /**
     * The next `count` writes are answered `status` (500 api_error, or 429 rate_limit) before any
     * work; `failedKeys()` lists the Idempotency-Key each carried.
     */
    failNextWrites: (count: number, status: 429 | 500) => {
      failures = { count, status, keys: [] };
    },
    failedKeys: () => [...failures.keys],
    /** What Stripe.js does in the browser after 3-D Secure succeeds. */
    completeAuthentication: (intentId: string) =>
      Object.assign(intents.get(intentId)!, {
        latest_charge: id("ch"),
        status: "requires_capture",
        amount_capturable: intents.get(intentId)!.amount,
        next_action: null,
      }),
    /**
     * What Stripe.js does in the browser for an intent opened without a payment method: confirm it
     * with the publishable key and the client secret, as POST /v1/payment_intents/:id/confirm.
     */
    confirmAsBrowser: async (
      intentId: string,
      clientSecret: string,
      data: Record<string, string>,
    ) => {
      const response = await fetch(`${baseUrl}/v1/payment_intents/${intentId}/confirm`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          key: "pk_test_shaped",
          client_secret: clientSecret,
          ...data,
        }).toString(),
      });
      return { status: response.status, body: (await response.json()) as Json };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
