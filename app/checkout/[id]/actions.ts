"use server";
/**
 * Server actions of the hosted checkout page: thin adapters from form data to the page's tRPC
 * procedures (server/routers/checkout-page). No rule lives here; errors come back as messages.
 */
import { revalidatePath } from "next/cache";
import { pageCaller } from "@/app/_trpc/server";
import { toAppError } from "@/server/http/respond";
import type { PayOutcome } from "@/server/routers/checkout-page/page.schema";

export type ActionState = { outcome?: PayOutcome; error?: string; fields?: Record<string, string> } | undefined;

const describe = (error: unknown): ActionState => {
  const appError = toAppError(error);
  return { error: appError.message, fields: appError.options.fields };
};

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** Saves a store's shipping choice. A refusal (closed checkout, payment under way) needs no message: the re-rendered page shows the state. */
export async function chooseShipping(form: FormData) {
  const id = text(form, "id");
  await (await pageCaller()).checkoutPage.selectShipping({ id, store: text(form, "store"), option: text(form, "option") }).catch((error: unknown) => {
    if (toAppError(error).status >= 500) throw error;
  });
  revalidatePath(`/checkout/${id}`);
}

export async function payCheckout(_previous: ActionState, form: FormData): Promise<ActionState> {
  const id = text(form, "id");
  const method =
    text(form, "method") === "link"
      ? { type: "link" as const, email: text(form, "link_email") }
      : { type: "card" as const, number: text(form, "number"), exp_month: text(form, "exp_month"), exp_year: text(form, "exp_year"), cvc: text(form, "cvc") };
  try {
    const outcome = await (await pageCaller()).checkoutPage.pay({ id, accept_terms: form.get("accept_terms") === "on", method } as never);
    revalidatePath(`/checkout/${id}`);
    return { outcome };
  } catch (error) {
    revalidatePath(`/checkout/${id}`);
    return describe(error);
  }
}

export async function confirmAuthentication(_previous: ActionState, form: FormData): Promise<ActionState> {
  const id = text(form, "id");
  try {
    const outcome = await (await pageCaller()).checkoutPage.confirmAuthentication({ id, payment_id: text(form, "payment_id"), authenticated: text(form, "result") === "approve" });
    revalidatePath(`/checkout/${id}`);
    return { outcome };
  } catch (error) {
    revalidatePath(`/checkout/${id}`);
    return describe(error);
  }
}
