"use client";
/**
 * A watch entry's time row: until when a live one (active or executing) lasts, else when it was
 * set. The price watches, watch groups and search watches lists show it alike.
 */
import { useLocale, useTranslations } from "next-intl";
import { formatTime, type Locale } from "@/server/core/locale";

export function UntilOrSet({
  entry,
  timeZone,
}: {
  entry: { status: string; expires_at: string; created_at: string };
  timeZone: string;
}) {
  const t = useTranslations("watches.account");
  const locale = useLocale() as Locale;
  const isLive = entry.status === "active" || entry.status === "executing";
  return (
    <>
      <dt>{isLive ? t("until") : t("set")}</dt>
      <dd>
        {formatTime(new Date(isLive ? entry.expires_at : entry.created_at), locale, timeZone)}
      </dd>
    </>
  );
}
