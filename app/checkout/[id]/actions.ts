"use server";
/**
 * Server actions of the hosted checkout page: thin adapters from form data to the page's tRPC
 * procedures (server/checkout/hosted). No rule lives here; outcomes and errors come back as
 * messages in the page's language. The procedures' own messages are English: an English page
 * shows them as they are (they are the most precise), a French one the wording of their code.
 * Paying records the page's language on the checkout: the confirmation is written in it.
 */
import { revalidatePath } from "next/cache";
import { getLocale, getTranslations } from "next-intl/server";
import { pageCaller } from "@/app/_trpc/server";
import { languageOfLocale, type Locale } from "@/server/core/locale";
import { toAppError } from "@/server/platform/http/respond";
import type { PayOutcome } from "@/server/checkout";

export type ActionState =
  { outcome?: PayOutcome; error?: string; fields?: Record<string, string> } | undefined;

const errorCodes = [
  "checkout_closed",
  "payment_in_progress",
  "rate_limited",
  "not_found",
  "invalid_request",
] as const;
const fieldNames = ["method.number", "method.exp_month", "method.exp_year", "method.cvc"] as const;

const isEnglish = async () => (await getLocale()) === "en-CA";

const describe = async (error: unknown): Promise<ActionState> => {
  const appError = toAppError(error);
  const t = await getTranslations("checkout");
  const english = await isEnglish();
  const code = errorCodes.find((known) => known === appError.code);
  const fields = Object.fromEntries(
    Object.entries(appError.options.fields ?? {}).map(([field, reason]) => {
      const name = fieldNames.find((known) => known === field);
      const label = name ? t(`fields.${name}`) : field;
      return [field, english ? `${label}: ${reason}` : t("fields.invalid", { field: label })];
    }),
  );
  return {
    error: english ? appError.message : code ? t(`errors.${code}`) : t("errors.other"),
    fields,
  };
};

/** The outcome with its message in the page's language (the reasons' English is the procedures'). */
const worded = async (outcome: PayOutcome): Promise<PayOutcome> => {
  if (outcome.outcome !== "declined" && outcome.outcome !== "closed") return outcome;
  const t = await getTranslations("checkout.outcome");
  return {
    ...outcome,
    message: t(outcome.reason, {
      orderNumber: outcome.outcome === "declined" ? (outcome.orderNumber ?? "") : "",
    }),
  } as PayOutcome;
};

/** The language of the page paid on, recorded on the checkout for its confirmation email. */
const pageLanguage = async () => languageOfLocale((await getLocale()) as Locale);

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
    ).checkoutPage.pay({
      id,
      accept_terms: form.get("accept_terms") === "on",
      method,
      language: await pageLanguage(),
    } as never);
    revalidatePath(`/checkout/${id}`);
    return { outcome: await worded(outcome) };
  } catch (error) {
    revalidatePath(`/checkout/${id}`);
    return await describe(error);
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
    return { outcome: await worded(outcome) };
  } catch (error) {
    revalidatePath(`/checkout/${id}`);
    return await describe(error);
  }
}

/** What the Payment Element panel needs to confirm an attempt in the browser: the intent's client secret, and nothing else. */
export type StartedIntent = { clientSecret?: string; error?: string };

/** Opens an attempt and its PaymentIntent (Stripe processor). No card data comes here: Stripe.js sends it to Stripe. */
export async function startStripePayment(id: string, acceptTerms: boolean): Promise<StartedIntent> {
  try {
    const started = await (
      await pageCaller()
    ).checkoutPage.startIntent({
      id,
      accept_terms: acceptTerms as true,
      language: await pageLanguage(),
    });
    return { clientSecret: started.clientSecret };
  } catch (error) {
    revalidatePath(`/checkout/${id}`);
    const { error: message, fields } = (await describe(error)) ?? {};
    const t = await getTranslations("checkout.pay");
    return { error: fields?.accept_terms ? t("acceptTerms") : message };
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
    return outcome ? { outcome: await worded(outcome) } : undefined;
  } catch (error) {
    revalidatePath(`/checkout/${id}`);
    return await describe(error);
  }
}
