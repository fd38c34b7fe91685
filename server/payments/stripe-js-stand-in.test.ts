/**
 * The Stripe.js stand-in of the browser tests (e2e/stripe-js-stand-in/stripe.js) stays in step
 * with what really calls Stripe.js: every member of the Stripe instance, of Elements and of an
 * Element that @stripe/stripe-js, @stripe/react-stripe-js (their installed dist files) and our
 * pages call must be one the stand-in implements, and the versions are the ones
 * docs/adr/0001-stripe-payment-element.md lists (an upgrade must look at the list again).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const standIn = read("e2e/stripe-js-stand-in/stripe.js");
const adr = read("docs/adr/0001-stripe-payment-element.md");

/** Members called as `<receiver>.<member>(` in `source`. */
const calls = (source: string, receiver: RegExp) =>
  new Set(
    [...source.matchAll(new RegExp(`\\b${receiver.source}\\.(\\w+)\\(`, "g"))].map(
      (match) => match[1],
    ),
  );
const implemented = (member: string) => new RegExp(`\\b${member}(\\s*\\(|\\s*:)`).test(standIn);

describe("the Stripe.js stand-in", () => {
  it("implements every call the libraries and our pages make, at the versions the decision record lists", () => {
    const versions = ["@stripe/stripe-js", "@stripe/react-stripe-js"].map(
      (name) => `${name}\` ${JSON.parse(read(`node_modules/${name}/package.json`)).version}`,
    );
    const listed = ["@stripe/stripe-js` 10.2.1", "@stripe/react-stripe-js` 7.0.1"];
    expect(versions).toEqual(listed);
    for (const version of listed) expect(adr).toContain(version);

    const sources = [
      read("node_modules/@stripe/stripe-js/dist/pure.mjs"),
      read("node_modules/@stripe/react-stripe-js/dist/react-stripe.esm.mjs"),
      read("app/checkout/[id]/stripe-pay-panel.tsx"),
      read("app/account/card/stripe-card-setup.tsx"),
    ].join("\n");
    const members = new Set([
      ...calls(sources, /(?:stripe|maybeStripe)/),
      ...calls(sources, /elements/),
      ...calls(sources, /(?:element|newElement|elementRef\.current)/),
    ]);
    // The Elements-only bindings we use; react-stripe-js's Checkout / Embedded Checkout / Issuing parts are never rendered.
    const unused = new Set([
      "initCheckoutElementsSdk",
      "initCheckoutFormSdk",
      "initEmbeddedCheckout",
      "createForm",
      "createPaymentElement",
      "createShippingAddressElement",
      "createBillingAddressElement",
      "createExpressCheckoutElement",
      "createCurrencySelectorElement",
      "createTaxIdElement",
      "createContactDetailsElement",
      "createLinkSignupElement",
      "createTermsElement",
      "apply",
      "then",
      "push",
      // A DOM form's `elements.namedItem` (the checkout's terms checkbox), not Stripe's Elements.
      "namedItem",
    ]);
    const missing = [...members].filter((member) => !unused.has(member) && !implemented(member));
    expect(missing).toEqual([]);
    for (const member of [
      "elements",
      "confirmPayment",
      "confirmSetup",
      "_registerWrapper",
      "registerAppInfo",
      "create",
      "submit",
      "update",
      "mount",
      "on",
      "off",
      "destroy",
    ]) {
      expect(implemented(member), member).toBe(true);
      expect(adr, member).toContain(member);
    }
  });
});
