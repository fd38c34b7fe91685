"use client";
/** The Stripe panel in its own chunk (Stripe's React bindings), loaded only where it renders: the sandbox's card page never downloads it. */
import dynamic from "next/dynamic";

export const StripeCardSetup = dynamic(() =>
  import("./stripe-card-setup").then((module) => module.StripeCardSetup),
);
