/* global window, document */
/*
 * A stand-in for Stripe.js (https://js.stripe.com/<release>/stripe.js), served by the Playwright
 * harness (e2e/stripe-js-stand-in/routes.ts) because Stripe.js cannot load on these machines. It
 * implements exactly the calls the pages and @stripe/stripe-js / @stripe/react-stripe-js make (the
 * list is in docs/adr/0001-stripe-payment-element.md), and talks to "Stripe" as Stripe.js does:
 * form-encoded requests to https://api.stripe.com/v1 with the publishable key and the intent's
 * client secret (the harness forwards them to the local Stripe-shaped server). The Payment Element
 * is plain inputs in an open shadow root (Stripe's is a cross-origin iframe): they have no `name`,
 * so no form of the page can ever submit them.
 */
(() => {
  const api = "https://api.stripe.com/v1";
  const encode = (params, prefix, out = new URLSearchParams()) => {
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      const name = prefix ? `${prefix}[${key}]` : key;
      if (typeof value === "object") encode(value, name, out);
      else out.append(name, String(value));
    }
    return out;
  };
  const post = async (path, params) => {
    const response = await fetch(`${api}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: encode(params).toString(),
    });
    return response.json();
  };

  /** The Payment Element: a Card tab (number, expiry, CVC) and a Link tab (email). */
  const createPaymentElement = (options) => {
    const listeners = {};
    let host = null;
    let root = null;
    let tab = "card";
    const emit = (event, payload) =>
      (listeners[event] || []).slice().forEach((handler) => handler(payload));
    const field = (name) => root && root.querySelector(`[data-field="${name}"]`);
    const value = (name) => (field(name) ? field(name).value.trim() : "");
    const render = () => {
      root.innerHTML = `
        <style>:host{display:block;margin:8px 0}label{display:block;margin:4px 0}[hidden]{display:none}</style>
        <div role="tablist" aria-label="Payment method">
          <button type="button" role="tab" data-tab="card" aria-selected="${tab === "card"}">Card</button>
          <button type="button" role="tab" data-tab="link" aria-selected="${tab === "link"}">Link</button>
        </div>
        <div data-panel="card" ${tab === "card" ? "" : "hidden"}>
          <label>Card number <input data-field="number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234"></label>
          <label>Expiration date <input data-field="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY"></label>
          <label>Security code <input data-field="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC"></label>
        </div>
        <div data-panel="link" ${tab === "link" ? "" : "hidden"}>
          <label>Link email <input data-field="email" type="email" autocomplete="email"></label>
        </div>`;
      root.querySelectorAll("[data-tab]").forEach((button) =>
        button.addEventListener("click", () => {
          const kept = {
            number: value("number"),
            expiry: value("expiry"),
            cvc: value("cvc"),
            email: value("email"),
          };
          tab = button.dataset.tab;
          render();
          Object.entries(kept).forEach(([name, kept]) => {
            if (field(name)) field(name).value = kept;
          });
          emit("change", {
            elementType: "payment",
            complete: false,
            empty: false,
            value: { type: tab },
          });
        }),
      );
      root.querySelectorAll("input").forEach((input) =>
        input.addEventListener("input", () =>
          emit("change", {
            elementType: "payment",
            complete: false,
            empty: false,
            value: { type: tab },
          }),
        ),
      );
    };
    return {
      mount(node) {
        host = typeof node === "string" ? document.querySelector(node) : node;
        const container = document.createElement("div");
        container.dataset.stripeStandIn = "payment-element";
        host.appendChild(container);
        root = container.attachShadow({ mode: "open" });
        render();
        setTimeout(() => emit("ready", { elementType: "payment" }), 0);
      },
      on(event, handler) {
        (listeners[event] = listeners[event] || []).push(handler);
        return this;
      },
      off(event, handler) {
        listeners[event] = (listeners[event] || []).filter((candidate) => candidate !== handler);
        return this;
      },
      update(changes) {
        Object.assign(options, changes);
      },
      destroy() {
        if (host) host.replaceChildren();
        host = null;
        root = null;
      },
      /** What Stripe.js would send for this element: `payment_method_data`, or a validation error. */
      _paymentMethodData() {
        if (tab === "link") {
          const email = value("email");
          if (!/^\S+@\S+\.\S+$/.test(email))
            return {
              error: {
                type: "validation_error",
                code: "incomplete_email",
                message: "Your email address is incomplete.",
              },
            };
          return { data: { type: "link", billing_details: { email } } };
        }
        const number = value("number").replace(/\s/g, "");
        const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(value("expiry"));
        if (!/^\d{12,19}$/.test(number))
          return {
            error: {
              type: "validation_error",
              code: "incomplete_number",
              message: "Your card number is incomplete.",
            },
          };
        if (!expiry)
          return {
            error: {
              type: "validation_error",
              code: "incomplete_expiry",
              message: "Your card's expiration date is incomplete.",
            },
          };
        if (!/^\d{3,4}$/.test(value("cvc")))
          return {
            error: {
              type: "validation_error",
              code: "incomplete_cvc",
              message: "Your card's security code is incomplete.",
            },
          };
        const year = expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
        return {
          data: {
            type: "card",
            card: { number, exp_month: Number(expiry[1]), exp_year: year, cvc: value("cvc") },
          },
        };
      },
    };
  };

  const createElements = (options) => {
    let payment = null;
    return {
      create(type, elementOptions) {
        if (type !== "payment") throw new Error(`The Stripe.js stand-in has no "${type}" element.`);
        payment = createPaymentElement({ ...options, ...elementOptions });
        return payment;
      },
      update(changes) {
        Object.assign(options, changes);
      },
      async submit() {
        if (!payment)
          return { error: { type: "validation_error", message: "No Payment Element is mounted." } };
        const checked = payment._paymentMethodData();
        return checked.error ? { error: checked.error } : {};
      },
      _payment: () => payment,
    };
  };

  /** confirmPayment / confirmSetup: POST /v1/{kind}s/:id/confirm, then follow a redirect as Stripe.js does. */
  const confirm = async (
    key,
    kind,
    { elements, clientSecret, confirmParams = {}, redirect = "always" },
  ) => {
    const checked = elements._payment()._paymentMethodData();
    if (checked.error) return { error: checked.error };
    const intentId = clientSecret.split("_secret_")[0];
    const answer = await post(`/${kind}s/${intentId}/confirm`, {
      key,
      client_secret: clientSecret,
      return_url: confirmParams.return_url,
      payment_method_data: checked.data,
    });
    const field = kind === "payment_intent" ? "paymentIntent" : "setupIntent";
    if (answer.error) return { error: answer.error };
    const action = answer.next_action && answer.next_action.redirect_to_url;
    if (action || redirect === "always") {
      const target = action
        ? action.url
        : (() => {
            const back = new URL(confirmParams.return_url);
            back.searchParams.set(kind, answer.id);
            back.searchParams.set(`${kind}_client_secret`, clientSecret);
            back.searchParams.set("redirect_status", "succeeded");
            return back.toString();
          })();
      window.location.assign(target);
      return new Promise(() => undefined);
    }
    return { [field]: answer };
  };

  const refuse = (name) => () =>
    Promise.reject(new Error(`The Stripe.js stand-in does not implement ${name}.`));

  function Stripe(publishableKey, options) {
    if (!/^pk_(test|live)_\w+$/.test(String(publishableKey)))
      throw new Error("Invalid publishable key.");
    void options;
    return {
      _registerWrapper() {},
      registerAppInfo() {},
      elements: (elementsOptions = {}) => createElements({ ...elementsOptions }),
      confirmPayment: (params) => confirm(publishableKey, "payment_intent", params),
      confirmSetup: (params) => confirm(publishableKey, "setup_intent", params),
      // Present so @stripe/react-stripe-js recognises a Stripe instance; the pages never call them.
      createToken: refuse("createToken"),
      createPaymentMethod: refuse("createPaymentMethod"),
      confirmCardPayment: refuse("confirmCardPayment"),
    };
  }
  Stripe.version = "endive";
  window.Stripe = Stripe;
})();
