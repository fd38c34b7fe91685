"use server";
/**
 * Server actions of sign-up, email confirmation and password reset: each calls one procedure and
 * answers in the page's language. The page's locale goes with the requests that write an email, so
 * a person who saved no language gets it in the language they asked in.
 */
import { headers } from "next/headers";
import { getLocale, getTranslations } from "next-intl/server";
import { pageCaller } from "@/app/_trpc/server";
import { admit, authLimits, limitLinkUse } from "@/server/auth";
import type { Locale } from "@/server/core/locale";
import { clientIp } from "@/server/platform/http/client-ip";
import type { ActionState } from "@/app/_trpc/action-state";
import { formValue, runAction } from "@/app/_trpc/run-action";

export const signUpAction = async (_state: ActionState, data: FormData) => {
  const t = await getTranslations("auth.signUp");
  const locale = (await getLocale()) as Locale;
  return runAction(
    async () => {
      await admit(authLimits.signUpPerIp, clientIp(await headers()));
      return (await pageCaller()).shopperAuth.signUp({
        email: formValue(data, "email") ?? "",
        password: formValue(data, "password") ?? "",
        name: formValue(data, "name") || null,
        locale,
      });
    },
    (result) => ({ message: t("sent", { email: result.email }) }),
  );
};

export const confirmEmailAction = async (_state: ActionState, data: FormData) => {
  const t = await getTranslations("auth.verify");
  return runAction(
    async () =>
      limitLinkUse(clientIp(await headers()), async () =>
        (await pageCaller()).shopperAuth.confirmEmail({ token: formValue(data, "token") ?? "" }),
      ),
    (result) => ({ message: t("confirmed", { email: result.email }) }),
  );
};

export const requestResetAction = async (_state: ActionState, data: FormData) => {
  const t = await getTranslations("auth.forgot");
  const locale = (await getLocale()) as Locale;
  return runAction(
    async () => {
      await admit(authLimits.emailLinksPerIp, clientIp(await headers()));
      return (await pageCaller()).shopperAuth.requestPasswordReset({
        email: formValue(data, "email") ?? "",
        locale,
      });
    },
    (result) => ({ message: t("sent", { email: result.email }) }),
  );
};

export const resetPasswordAction = async (_state: ActionState, data: FormData) => {
  const t = await getTranslations("auth.reset");
  return runAction(
    async () =>
      limitLinkUse(clientIp(await headers()), async () =>
        (await pageCaller()).shopperAuth.resetPassword({
          token: formValue(data, "token") ?? "",
          password: formValue(data, "password") ?? "",
        }),
      ),
    () => ({ message: t("changed") }),
  );
};
