/**
 * The language of the person's pages and emails ("en" | "fr"), saved on their own row from
 * /account (the page also copies it into the `lang` cookie, app/_i18n/language-cookie.ts), and what
 * the account pages read to show it and to format times in the person's zone. Pages only: the
 * REST /me answer does not carry it.
 */
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZPreferencesResponse, ZSetLanguageInput } from "./account.schema";
import { readPagePreferences, saveLanguage } from "./store/persons";

/** Saves the signed-in person's language; a language other than en or fr is refused (422). */
export const setLanguage = shopperProcedure
  .input(ZSetLanguageInput)
  .mutation(async ({ ctx, input }) => ({
    language: await saveLanguage(ctx.db, ctx.personId, input.language),
  }));

/** The signed-in person's saved language (null: none) and the zone their times are shown in. */
export const getPreferences = shopperProcedure
  .output(ZPreferencesResponse)
  .query(async ({ ctx }) => {
    const { language, timeZone } = await readPagePreferences(ctx.db, ctx.personId);
    return { language, time_zone: timeZone };
  });
