"use server";
/**
 * Server actions of the account pages: each calls one shopper procedure, then refreshes the page,
 * and answers in the page's language. Saving the language also copies it into this browser's
 * `lang` cookie, so the next page renders in it.
 */
import { revalidatePath } from "next/cache";
import { getLocale, getTranslations } from "next-intl/server";
import { rememberLanguage } from "@/app/_i18n/remember-language";
import { pageCaller } from "@/app/_trpc/server";
import type { ActionState } from "@/app/_trpc/action-state";
import { formValue, runAction } from "@/app/_trpc/run-action";
import type { Language, Locale } from "@/server/core/locale";

const refreshed =
  <T>(message: (result: T) => string) =>
  (result: T) => {
    revalidatePath("/account", "layout");
    return { message: message(result) };
  };

export const updateProfileAction = async (_state: ActionState, data: FormData) => {
  const t = await getTranslations("account.profile");
  const locale = (await getLocale()) as Locale;
  return runAction(
    async () =>
      (await pageCaller()).account.updateProfile({
        name: formValue(data, "name") || null,
        email: formValue(data, "email") ?? "",
        locale,
      }),
    refreshed((result) =>
      result.confirmation_sent ? t("savedConfirm", { email: result.email }) : t("saved"),
    ),
  );
};

export const updateSizesAction = async (_state: ActionState, data: FormData) => {
  const t = await getTranslations("account.profile");
  return runAction(
    async () =>
      (await pageCaller()).account.updateSizes({
        sizes: (formValue(data, "sizes") ?? "")
          .split(",")
          .map((size) => size.trim())
          .filter(Boolean),
      }),
    refreshed((result) =>
      result.sizes.length ? t("sizesSaved", { sizes: result.sizes.join(", ") }) : t("sizesCleared"),
    ),
  );
};

export const saveLanguageAction = async (_state: ActionState, data: FormData) => {
  const chosen = formValue(data, "language");
  // Said in the language just saved, not the request's: the page around it re-renders in it.
  const t = await getTranslations({
    locale: chosen === "fr" ? "fr-CA" : "en-CA",
    namespace: "account.language",
  });
  return runAction(
    async () => {
      const saved = await (
        await pageCaller()
      ).account.setLanguage({ language: (chosen ?? "") as Language });
      await rememberLanguage(saved.language);
      return saved;
    },
    refreshed(() => t("saved")),
  );
};

export const saveAddressAction = async (_state: ActionState, data: FormData) => {
  const t = await getTranslations("account.address");
  return runAction(
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
    refreshed((result) =>
      t("saved", {
        line1: result.line1,
        city: result.city,
        province: result.province,
        postalCode: result.postal_code,
      }),
    ),
  );
};

export const removeAddressAction = async (_state: ActionState, _data: FormData) => {
  const t = await getTranslations("account.address");
  return runAction(
    async () => (await pageCaller()).account.removeShippingAddress(),
    refreshed(() => t("removed")),
  );
};

export const disconnectAppAction = async (_state: ActionState, data: FormData) => {
  const t = await getTranslations("account.apps");
  return runAction(
    async () =>
      (await pageCaller()).account.disconnectApp({ client_id: formValue(data, "client_id") ?? "" }),
    refreshed(() => t("disconnected")),
  );
};

export const resendConfirmationAction = async (_state: ActionState, _data: FormData) => {
  const t = await getTranslations("account.unconfirmed");
  const locale = (await getLocale()) as Locale;
  return runAction(
    async () => (await pageCaller()).shopperAuth.resendConfirmation({ locale }),
    (result) => ({
      message: result.already_confirmed ? t("already") : t("sent", { email: result.email }),
    }),
  );
};
