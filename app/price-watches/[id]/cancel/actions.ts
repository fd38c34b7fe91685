"use server";
/** The watch cancel page's POST: a thin adapter to priceWatchPage.cancel; no rule lives here. */
import { revalidatePath } from "next/cache";
import { pageCaller } from "@/app/_trpc/server";
import type { ActionState } from "@/app/_trpc/action-state";
import { formValue, runAction } from "@/app/_trpc/run-action";

export const cancelWatchAction = async (_state: ActionState, data: FormData) => {
  const id = formValue(data, "id") ?? "";
  const state = await runAction(
    async () =>
      (await pageCaller()).priceWatchPage.cancel({
        id: Number(id),
        token: formValue(data, "token") ?? "",
      }),
    (result) => ({
      message: result.already_cancelled
        ? "This price watch is already cancelled."
        : "Your price watch is cancelled: nothing will be bought. We sent you a confirmation.",
    }),
  );
  revalidatePath(`/price-watches/${id}/cancel`);
  return state;
};
