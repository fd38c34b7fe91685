"use server";
/** The watch cancel page's POST: a thin adapter to priceWatchPage.cancel; no rule lives here. */
import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { pageCaller } from "@/app/_trpc/server";
import type { ActionState } from "@/app/_trpc/action-state";
import { formValue, runAction } from "@/app/_trpc/run-action";

export const cancelWatchAction = async (_state: ActionState, data: FormData) => {
  const t = await getTranslations("watches.cancelPage");
  const id = formValue(data, "id") ?? "";
  const state = await runAction(
    async () =>
      (await pageCaller()).priceWatchPage.cancel({
        id: Number(id),
        token: formValue(data, "token") ?? "",
      }),
    (result) => ({ message: result.already_cancelled ? t("already") : t("done") }),
  );
  revalidatePath(`/price-watches/${id}/cancel`);
  // The service's refusal is English and for developers; the person reads what to do.
  return state.status === "error" ? { ...state, message: t("failed") } : state;
};
