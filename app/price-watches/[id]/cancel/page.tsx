import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { WatchedItemCard } from "@/app/_components/watched-item";
import { ZoneNote } from "@/app/_components/zone-note";
import { pageCaller } from "@/app/_trpc/server";
import { watchOutcomeKey } from "@/server/core/messages";
import { formatMoney, formatTime, type Locale } from "@/server/core/locale";
import { cancelWatchAction } from "./actions";

export const dynamic = "force-dynamic";

export const generateMetadata = async () => ({
  title: `${(await getTranslations("watches.cancelPage"))("metaTitle")} · Shopping API`,
});

type Watch = NonNullable<Awaited<ReturnType<typeof inspect>>>;

const inspect = async (id: string, token: string) =>
  (await pageCaller()).priceWatchPage
    .inspectCancel({ id: Number(id), token })
    .catch(() => undefined);

const badgeTones: Partial<Record<Watch["status"], string>> = {
  active: "warn",
  fulfilled: "ok",
  needs_you: "accent",
};

/** What happened, for a watch that can no longer be cancelled; with why it ended when it says more. */
async function StateNotice({ watch }: { watch: Watch }) {
  const t = await getTranslations("watches");
  const { status, outcome } = watch;
  const why =
    (status === "cancelled" && outcome !== "cancelled") ||
    (status === "expired" && outcome === "over_your_total")
      ? t(`why.${watchOutcomeKey(outcome)}`)
      : null;
  const text =
    status === "fulfilled"
      ? t("cancelPage.state.fulfilled", { order: watch.order_number ?? "" })
      : status === "cancelled" && outcome !== "cancelled"
        ? t("cancelPage.state.ended")
        : t(`cancelPage.state.${status}`);
  return (
    <div
      className={`notice ${status === "fulfilled" || status === "cancelled" ? "ok" : "info"}`}
      data-testid="watch-state"
    >
      <p>{text}</p>
      {why ? <p>{why}</p> : null}
    </div>
  );
}

function BadLink({ title, text, action }: { title: string; text: string; action: string }) {
  return (
    <section className="auth-card watch-card" aria-labelledby="watch-title">
      <h1 id="watch-title">{title}</h1>
      <div className="notice warn" data-testid="watch-state">
        <p>{text}</p>
      </div>
      <Link href="/account/watches" className="button primary block">
        {action}
      </Link>
    </section>
  );
}

/**
 * Where the set email's cancel link lands. Opening it changes nothing (mail scanners open links):
 * it shows the watched item, the watch's limits and where it stands, and for an active watch one
 * Cancel button, which posts the cancel. Times are in the person's zone, named once.
 */
export default async function CancelWatchPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ token?: string }>;
}) {
  const { id } = await params;
  const token = (await searchParams).token ?? "";
  const t = await getTranslations("watches");
  const locale = (await getLocale()) as Locale;
  const watch = await inspect(id, token);
  if (!watch)
    return (
      <BadLink
        title={t("cancelPage.badLink.title")}
        text={t("cancelPage.badLink.text")}
        action={t("cancelPage.badLink.action")}
      />
    );
  return (
    <section className="auth-card wide watch-card" aria-labelledby="watch-title">
      <span className={`badge ${badgeTones[watch.status] ?? ""}`} data-testid="watch-status">
        {t(`status.${watch.status}`)}
      </span>
      <h1 id="watch-title">{t("cancelPage.title", { title: watch.item.title })}</h1>
      <WatchedItemCard item={watch.item} size={watch.size} />
      <dl className="facts">
        <dt>{t("limits.buyAt")}</dt>
        <dd>{t("limits.buyAtValue", { price: formatMoney(watch.max_price_cents, locale) })}</dd>
        <dt>{t("limits.totalAtMost")}</dt>
        <dd>
          {t("limits.totalAtMostValue", { total: formatMoney(watch.max_total_cents, locale) })}
        </dd>
        <dt>{t("limits.until")}</dt>
        <dd>{formatTime(new Date(watch.expires_at), locale, watch.time_zone)}</dd>
      </dl>
      {watch.can_cancel ? (
        <>
          <div className="notice info" data-testid="watch-state">
            <p>{t("cancelPage.state.active")}</p>
          </div>
          <ActionForm action={cancelWatchAction}>
            <input type="hidden" name="id" value={watch.price_watch_id} />
            <input type="hidden" name="token" value={token} />
            <FormMessage />
            <SubmitButton className="button primary block">{t("cancelPage.cancel")}</SubmitButton>
            <p className="hint">{t("cancelPage.cancelHint")}</p>
          </ActionForm>
        </>
      ) : (
        <>
          <StateNotice watch={watch} />
          {watch.checkout_url ? (
            <a href={watch.checkout_url} className="button primary block">
              {t("cancelPage.pay")}
            </a>
          ) : (
            <Link href="/account/watches" className="button primary block">
              {t("cancelPage.myWatches")}
            </Link>
          )}
        </>
      )}
      <ZoneNote timeZone={watch.time_zone} />
    </section>
  );
}
