/**
 * next-intl's per-request configuration: the shopper's language and the messages. The language is
 * the person's saved one (the `lang` cookie, written when they save it on /account and when they
 * sign in), else the browser's Accept-Language, else English (server/core/locale.ts pickLocale).
 * There is no locale in the URL: an emailed link opens in the reader's language, whoever sent it.
 */
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { defaultTimeZone, isLocale, pickLocale } from "@/server/core/locale";
import { messagesOf } from "@/server/core/messages";
import { languageCookie } from "./language-cookie";

export default getRequestConfig(async ({ locale: asked }) => {
  // getTranslations({ locale }) names one (a confirmation in the language just saved).
  const locale = isLocale(asked)
    ? asked
    : pickLocale(
        (await cookies()).get(languageCookie)?.value,
        (await headers()).get("accept-language"),
      );
  return { locale, messages: messagesOf(locale), timeZone: defaultTimeZone };
});
