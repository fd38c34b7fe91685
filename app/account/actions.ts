"use server";
/** Server actions of the account pages: each calls one shopper procedure, then refreshes the page. */
import { revalidatePath } from "next/cache";
import { pageCaller } from "@/app/_trpc/server";
import type { ActionState } from "@/app/_trpc/action-state";
import { formValue, runAction } from "@/app/_trpc/run-action";

const refreshed =
  <T>(message: (result: T) => string) =>
  (result: T) => {
    revalidatePath("/account", "layout");
    return { message: message(result) };
  };

export const updateProfileAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      (await pageCaller()).account.updateProfile({
        name: formValue(data, "name") || null,
        email: formValue(data, "email") ?? "",
      }),
    refreshed((result) =>
      result.confirmation_sent
        ? `Saved. We sent a confirmation link to ${result.email}.`
        : "Your profile is saved.",
    ),
  );

export const updateSizesAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      (await pageCaller()).account.updateSizes({
        sizes: (formValue(data, "sizes") ?? "")
          .split(",")
          .map((size) => size.trim())
          .filter(Boolean),
      }),
    refreshed((result) =>
      result.sizes.length
        ? `Saved your sizes: ${result.sizes.join(", ")}.`
        : "Your saved sizes are cleared.",
    ),
  );

export const saveAddressAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      (await pageCaller()).account.saveShippingAddress({
        name: formValue(data, "name") ?? "",
        line1: formValue(data, "line1") ?? "",
        line2: formValue(data, "line2") || null,
        city: formValue(data, "city") ?? "",
        province: formValue(data, "province") ?? "",
        postal_code: formValue(data, "postal_code") ?? "",
        country: "CA",
        phone: formValue(data, "phone") || null,
      }),
    refreshed(
      (result) =>
        `Saved. Parcels go to ${result.line1}, ${result.city} ${result.province} ${result.postal_code}.`,
    ),
  );

export const removeAddressAction = async (_state: ActionState, _data: FormData) =>
  runAction(
    async () => (await pageCaller()).account.removeShippingAddress(),
    refreshed(() => "Your saved address is removed."),
  );

export const disconnectAppAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      (await pageCaller()).account.disconnectApp({ client_id: formValue(data, "client_id") ?? "" }),
    refreshed(() => "Disconnected. The app can no longer act for you."),
  );

export const resendConfirmationAction = async (_state: ActionState, _data: FormData) =>
  runAction(
    async () => (await pageCaller()).shopperAuth.resendConfirmation(),
    (result) => ({
      message: result.already_confirmed
        ? "Your address is already confirmed."
        : `We sent a new link to ${result.email}.`,
    }),
  );
