/** Names once, under a page's content, the zone its times are in (the person's, server/core/locale.ts). */
import { useLocale, useTranslations } from "next-intl";
import { type Locale, zoneLabel } from "@/server/core/locale";

export function ZoneNote({ timeZone }: { timeZone: string }) {
  const t = useTranslations("common");
  return (
    <p className="muted small zone-note">
      {t("zoneNote", { zone: zoneLabel(useLocale() as Locale, timeZone) })}
    </p>
  );
}
