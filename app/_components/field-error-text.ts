/**
 * A refused field's reason in the page's language. The reasons come from the server's zod schemas
 * in English (the API's text for partners stays English); on a French page the known ones are
 * shown in French, and anything else as the server wrote it. An English page shows them as written.
 * Works in server and client components (no hooks but next-intl's).
 */
import { useLocale, useTranslations } from "next-intl";
import { formatMoney, type Locale } from "@/server/core/locale";
import type { Messages } from "@/server/core/messages";
import { parseCents } from "@/server/core/money";
import { provinces, provinceCodes } from "@/server/core/provinces";

type Key = keyof Messages["account"]["fieldErrors"];

/** English reason → its message key, and the values its placeholders take from the match. */
const rules: [RegExp, Key, ((match: RegExpExecArray) => Record<string, string>)?][] = [
  [/^is required$/, "required"],
  [/^must be an email address$/, "email"],
  [/^must be at least (\d+) characters$/, "minLength", (m) => ({ min: m[1] })],
  [/^must be at most (\d+) characters$/, "maxLength", (m) => ({ max: m[1] })],
  [/^is already used by another account$/, "emailTaken"],
  [/^must be a Canadian postal code like K1A 0B1$/, "postalCode"],
  [/^is not a postal code of (.+)$/, "postalCodeOf", (m) => ({ province: m[1] })],
  [/^must be (a province or territory code|one of .+)$/, "province"],
  [/^must be a phone number$/, "phone"],
  [/^each size must be at most 20 characters$/, "sizeLength"],
  [/^at most 20 sizes$/, "sizeCount"],
  [/^must be an amount in dollars with at most two decimals, like 500\.00$/, "amount"],
  [/^must be more than 0\.00$/, "amountPositive"],
  [/^must be at most (\d+\.\d\d)$/, "amountMax", (m) => ({ max: m[1] })],
  [/^must not be more than the limit per 30 days$/, "perOrderAbove30Days"],
  [/^must be 12 to 19 digits$/, "cardDigits"],
  [/^is not a valid card number \(check the digits\)$/, "cardNumber"],
  [/^must be a month from 1 to 12$/, "month"],
  [/^must be a year like 2030$/, "year"],
  [/^must be 3 or 4 digits$/, "cvc"],
  [/^is in the past: the card has expired$/, "expired"],
];

/** A translator of refused fields' reasons, with `fixFields`, the line above a refused form. */
export const useFieldErrorText = () => {
  const t = useTranslations("account.fieldErrors");
  const tProvince = useTranslations("account.address.provinces");
  const fixFields = useTranslations("account.form")("fixFields");
  const locale = useLocale() as Locale;
  const isEnglish = locale === "en-CA";
  /** The province's name in the page's language, from the English one the server wrote. */
  const provinceName = (english: string) => {
    const code = provinceCodes.find((candidate) => provinces[candidate].name === english);
    return code ? tProvince(code) : english;
  };
  const translate = (reason: string | undefined) => {
    if (!reason || isEnglish) return reason;
    for (const [pattern, key, values] of rules) {
      const match = pattern.exec(reason);
      if (!match) continue;
      const found = values?.(match) ?? {};
      if (found.province) found.province = provinceName(found.province);
      if (key === "amountMax") found.max = formatMoney(parseCents(found.max), locale);
      return t(key, found);
    }
    return reason;
  };
  return Object.assign(translate, { fixFields });
};
