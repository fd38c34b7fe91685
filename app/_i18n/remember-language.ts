/**
 * Copies a person's saved language into this browser's `lang` cookie (when they save it on
 * /account, and when they sign in), so pages render in it before anyone asks who they are. A person
 * who saved none gets the cookie removed: their pages follow the browser's Accept-Language, not the
 * language of whoever signed in here before.
 */
import { cookies } from "next/headers";
import { languageCookie, languageCookieOptions } from "./language-cookie";

export const rememberLanguage = async (language: string | null | undefined) => {
  const jar = await cookies();
  if (language === "en" || language === "fr") {
    jar.set(languageCookie, language, languageCookieOptions);
  } else {
    jar.delete(languageCookie);
  }
};
