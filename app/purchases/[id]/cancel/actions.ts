"use server";
/**
 * The cancel page's POST: a thin adapter to purchasePage.cancel; no rule lives here. The page is
 * then rendered again (revalidatePath) and shows the purchase's new state; the message is the
 * answer in the person's language, and a refusal says why (too late, already charged, bad link).
 */
import { revalidatePath } from "next/cache";
import { unstable_rethrow } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { pageCaller } from "@/app/_trpc/server";
import type { ActionState } from "@/app/_trpc/action-state";
import { formValue } from "@/app/_trpc/run-action";
import { toAppError } from "@/server/platform/http/respond";

const refusals = {
  too_late_to_cancel: "tooLate",
  already_charged: "alreadyCharged",
  invalid_link: "invalid",
  invalid_request: "invalid",
} as const;

const refusalOf = (code: string) =>
  Object.hasOwn(refusals, code) ? refusals[code as keyof typeof refusals] : "failed";

export const cancelPurchaseAction = async (
  _state: ActionState,
  data: FormData,
): Promise<ActionState> => {
  const t = await getTranslations("purchases.cancelPage.action");
  const id = formValue(data, "id") ?? "";
  let state: ActionState;
  try {
    const result = await (
      await pageCaller()
    ).purchasePage.cancel({ id, token: formValue(data, "token") ?? "" });
    state = {
      status: "ok",
      at: Date.now(),
      message: result.already_cancelled ? t("alreadyCancelled") : t("cancelled"),
    };
  } catch (error) {
    unstable_rethrow(error);
    state = { status: "error", at: Date.now(), message: t(refusalOf(toAppError(error).code)) };
  }
  revalidatePath(`/purchases/${id}/cancel`);
  return state;
};
