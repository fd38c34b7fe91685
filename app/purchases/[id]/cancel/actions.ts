"use server";
/** The cancel page's POST: a thin adapter to purchasePage.cancel; no rule lives here. */
import { revalidatePath } from "next/cache";
import { pageCaller } from "@/app/_trpc/server";
import type { ActionState } from "@/app/_trpc/action-state";
import { formValue, runAction } from "@/app/_trpc/run-action";

export const cancelPurchaseAction = async (_state: ActionState, data: FormData) => {
  const id = formValue(data, "id") ?? "";
  const state = await runAction(
    async () =>
      (await pageCaller()).purchasePage.cancel({ id, token: formValue(data, "token") ?? "" }),
    (result) => ({
      message: result.already_cancelled
        ? "This purchase is already cancelled: nothing was charged."
        : "Your purchase is cancelled. The hold on your card is released; nothing is charged. We sent you a confirmation.",
    }),
  );
  revalidatePath(`/purchases/${id}/cancel`);
  return state;
};
