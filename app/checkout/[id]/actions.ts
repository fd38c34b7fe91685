"use server";
/**
 * Server actions of the hosted checkout page: thin adapters from form data to the page's tRPC
 * procedures (server/routers/checkout-page). No rule lives here; errors come back as messages.
 */
import { revalidatePath } from "next/cache";
import { pageCaller } from "@/app/_trpc/server";
import { toAppError } from "@/server/platform/http/respond";
import type { PayOutcome } from "@/server/checkout";

export type ActionState =
  { outcome?: PayOutcome; error?: string; fields?: Record<string, string> } | undefined;

const describe = (error: unknown): ActionState => {
  const appError = toAppError(error);
  return { error: appError.message, fields: appError.options.fields };
};

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** Saves a store's shipping choice. A refusal (closed checkout, payment under way) needs no message: the re-rendered page shows the state. */
export async function chooseShipping(form: FormData) {
  const id = text(form, "id");
  await (
    await pageCaller()
  ).checkoutPage
    .selectShipping({ id, store: text(form, "store"), option: text(form, "option") })
    .catch((error: unknown) => {
      if (toAppError(error).status >= 500) throw error;
    });
  revalidatePath(`/checkout/${id}`);
}

export async function payCheckout(_previous: ActionState, form: FormData): Promise<ActionState> {
  const id = text(form, "id");
  const method =
    text(form, "method") === "link"
      ? { type: "link" as const, email: text(form, "link_email") }
      : {
          type: "card" as const,
          number: text(form, "number"),
          exp_month: text(form, "exp_month"),
          exp_year: text(form, "exp_year"),
          cvc: text(form, "cvc"),
        };
  try {
    const outcome = await (
      await pageCaller()
    ).checkoutPage.pay({ id, accept_terms: form.get("accept_terms") === "on", method } as never);
    revalidatePath(`/checkout/${id}`);
    return { outcome };
  } catch (error) {
    revalidatePath(`/checkout/${id}`);
    return describe(error);
  }
}

export async function confirmAuthentication(
  _previous: ActionState,
  form: FormData,
): Promise<ActionState> {
  const id = text(form, "id");
  try {
    const outcome = await (
      await pageCaller()
    ).checkoutPage.confirmAuthentication({
      id,
      payment_id: text(form, "payment_id"),
      authenticated: text(form, "result") === "approve",
    });
    revalidatePath(`/checkout/${id}`);
    return { outcome };
  } catch (error) {
    revalidatePath(`/checkout/${id}`);
    return describe(error);
  }
}

/** What the Payment Element panel needs to confirm an attempt in the browser: the intent's client secret, and nothing else. */
export type StartedIntent = { clientSecret?: string; error?: string };

/** Opens an attempt and its PaymentIntent (Stripe processor). No card data comes here: Stripe.js sends it to Stripe. */
export async function startStripePayment(id: string, acceptTerms: boolean): Promise<StartedIntent> {
  try {
    const started = await (
      await pageCaller()
    ).checkoutPage.startIntent({ id, accept_terms: acceptTerms as true });
    return { clientSecret: started.clientSecret };
  } catch (error) {
    revalidatePath(`/checkout/${id}`);
    const { error: message, fields } = describe(error) ?? {};
    return { error: fields?.accept_terms ? "Accept the terms of sale to pay." : message };
  }
}

/** After Stripe.js confirmed (or on the return_url after 3-D Secure): the server asks Stripe what the intent came to. */
export async function completeStripePayment(
  id: string,
  paymentIntent: string,
): Promise<ActionState> {
  try {
    const outcome = await (
      await pageCaller()
    ).checkoutPage.completeIntent({ id, payment_intent: paymentIntent });
    revalidatePath(`/checkout/${id}`);
    return outcome ? { outcome } : undefined;
  } catch (error) {
    revalidatePath(`/checkout/${id}`);
    return describe(error);
  }
}
