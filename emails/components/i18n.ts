/**
 * The text and formats of a shopper's email, in their language and zone: every shopper email's
 * props carry `locale` and `timeZone` (the recipient's, chosen when it is written to the outbox),
 * and amounts as cents and times as ISO strings, formatted here at render time.
 * Partner emails (endpoint-deprecated, webhook-endpoint-disabled) stay English and do not use this.
 */
import {
  defaultLocale,
  defaultTimeZone,
  formatDate,
  formatMoney,
  formatTime,
  formatTimeLeft,
  isLocale,
  type Locale,
  zoneLabel,
} from "../../server/core/locale";
import { translatorOf } from "../../server/core/messages";

/** What every shopper email's props carry besides its own fields. */
export type Localised = { locale: Locale; timeZone: string };

/** The translator and formatters of one email; a missing or unknown locale reads as English (rows written before issue 27). */
export const emailIntl = (props: Partial<Localised>) => {
  const locale = isLocale(props.locale) ? props.locale : defaultLocale;
  const timeZone = props.timeZone ?? defaultTimeZone;
  return {
    locale,
    timeZone,
    t: translatorOf(locale),
    money: (cents: number) => formatMoney(cents, locale),
    time: (iso: string | Date) => formatTime(new Date(iso), locale, timeZone),
    /** A calendar day of a delivery estimate ("2026-12-02"), which has no zone. */
    day: (isoDay: string) => formatDate(new Date(`${isoDay}T12:00:00Z`), locale, "UTC"),
    timeLeft: (now: Date, until: string | Date) => formatTimeLeft(now, new Date(until), locale),
    zone: zoneLabel(locale, timeZone),
  };
};

export type EmailIntl = ReturnType<typeof emailIntl>;
