"use client";
/**
 * Stripe.js for the pages' Payment Element panels: one instance per publishable key. From
 * `@stripe/stripe-js/pure`, so the script (https://js.stripe.com/...) is injected only when a
 * Stripe panel renders, never on sandbox pages.
 */
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";

const instances = new Map<string, Promise<Stripe | null>>();

export const stripeFor = (publishableKey: string) => {
  if (!instances.has(publishableKey)) instances.set(publishableKey, loadStripe(publishableKey));
  return instances.get(publishableKey)!;
};

/** `pi_…_secret_…` / `seti_…_secret_…` -> the intent's id. */
export const intentIdOf = (clientSecret: string) => clientSecret.split("_secret_")[0];
