"use client";
/**
 * The limits form and the pause switch. Both call the dashboard procedures through @trpc/client
 * and show the saved state in place (no page reload); a refused value shows its reason under the
 * field it concerns.
 *
 * The amounts are uncontrolled inputs read from the form's FormData at submit: what was typed
 * while the page was still server HTML survives hydration (React leaves the value of an
 * uncontrolled input alone when it hydrates; a controlled one is reset to its state).
 */
import { useLocale, useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { useFieldErrorText } from "@/app/_components/field-error-text";
import { useHydrated } from "@/app/_components/use-hydrated";
import { ZoneNote } from "@/app/_components/zone-note";
import { dashboardClient, fieldErrorsOf, messageOf } from "@/app/_trpc/client";
import type { TSpendingSettingsResponse } from "@/server/accounts";
import { formatMoney, formatTime, type Locale } from "@/server/core/locale";
import { parseCents, type Money } from "@/server/core/money";
import { maxSpendingLimitCents } from "@/server/core/spending-limits";
import { NoticeLine, type Notice } from "../notice-line";

/** A saved limit as the page's language writes money ("$2,000.00", "2 000,00 $"). */
const shown = (money: Money, locale: Locale) => formatMoney(parseCents(money.amount), locale);

function LimitField({
  name,
  label,
  defaultValue,
  error,
}: {
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
}) {
  const t = useTranslations("account.limits");
  const locale = useLocale() as Locale;
  const errorText = useFieldErrorText()(error);
  const id = `field-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        className="input"
        inputMode="decimal"
        autoComplete="off"
        placeholder="500.00"
        defaultValue={defaultValue}
        aria-invalid={errorText ? true : undefined}
        aria-describedby={errorText ? `${id}-error` : `${id}-hint`}
      />
      {errorText ? (
        <span className="field-error" id={`${id}-error`}>
          {errorText}
        </span>
      ) : (
        <span className="hint" id={`${id}-hint`}>
          {t("amountHint", { max: formatMoney(maxSpendingLimitCents, locale) })}
        </span>
      )}
    </div>
  );
}

/** Writes a saved amount into its (uncontrolled) field. */
const showAmount = (form: HTMLFormElement, name: string, amount: string | undefined) => {
  const input = form.elements.namedItem(name);
  if (input instanceof HTMLInputElement) input.value = amount ?? "";
};

export function SpendingSettingsPanel({
  initial,
  timeZone,
}: {
  initial: TSpendingSettingsResponse;
  /** The person's zone, which the time of the last pause or resume is shown in. */
  timeZone: string;
}) {
  const t = useTranslations("account.limits");
  const locale = useLocale() as Locale;
  const { fixFields } = useFieldErrorText();
  const [settings, setSettings] = useState(initial);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [limitsNotice, setLimitsNotice] = useState<Notice>(null);
  const [pauseNotice, setPauseNotice] = useState<Notice>(null);
  const [isPending, setIsPending] = useState(false);
  const isHydrated = useHydrated();

  const saveLimits = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setIsPending(true);
    try {
      const saved = await dashboardClient.account.setSpendingLimits.mutate({
        limit_per_order: String(data.get("limit_per_order") ?? ""),
        limit_per_30_days: String(data.get("limit_per_30_days") ?? ""),
      });
      setSettings(saved);
      // The fields show the amounts as saved ("500" becomes "500.00").
      showAmount(form, "limit_per_order", saved.limit_per_order?.amount);
      showAmount(form, "limit_per_30_days", saved.limit_per_30_days?.amount);
      setFields({});
      setLimitsNotice({ tone: "ok", text: t("saved") });
    } catch (error) {
      const refused = fieldErrorsOf(error);
      setFields(refused ?? {});
      setLimitsNotice({
        tone: "error",
        text: refused ? fixFields : messageOf(error),
      });
    } finally {
      setIsPending(false);
    }
  };

  const setPaused = async (paused: boolean) => {
    setIsPending(true);
    try {
      const saved = await dashboardClient.account.setPurchasesPaused.mutate({ paused });
      setSettings(saved);
      setPauseNotice({
        tone: "ok",
        text: saved.purchases_paused ? t("nowPaused") : t("nowResumed"),
      });
    } catch (error) {
      setPauseNotice({ tone: "error", text: messageOf(error) });
    } finally {
      setIsPending(false);
    }
  };

  const hasLimits = settings.limit_per_order !== null && settings.limit_per_30_days !== null;
  return (
    <>
      <section className="panel" aria-labelledby="limits-title">
        <h2 id="limits-title">{t("limitsTitle")}</h2>
        <dl className="facts" data-testid="saved-limits">
          <dt>{t("perOrder")}</dt>
          <dd>
            {settings.limit_per_order ? shown(settings.limit_per_order, locale) : t("notSet")}
          </dd>
          <dt>{t("per30Days")}</dt>
          <dd>
            {settings.limit_per_30_days ? shown(settings.limit_per_30_days, locale) : t("notSet")}
          </dd>
        </dl>
        {!hasLimits ? <p className="hint">{t("needBoth")}</p> : null}
        <form
          className="form"
          style={{ marginTop: 16 }}
          onSubmit={(event) => void saveLimits(event)}
          noValidate
        >
          <NoticeLine notice={limitsNotice} />
          <div className="row">
            <LimitField
              name="limit_per_order"
              label={t("perOrderLabel")}
              defaultValue={initial.limit_per_order?.amount ?? ""}
              error={fields.limit_per_order}
            />
            <LimitField
              name="limit_per_30_days"
              label={t("per30DaysLabel")}
              defaultValue={initial.limit_per_30_days?.amount ?? ""}
              error={fields.limit_per_30_days}
            />
          </div>
          <div>
            <button type="submit" className="button primary" disabled={isPending || !isHydrated}>
              {t("save")}
            </button>
          </div>
        </form>
      </section>
      <section className="panel" aria-labelledby="pause-title">
        <h2 id="pause-title">{t("pauseTitle")}</h2>
        <div className="form">
          <p data-testid="purchases-state">
            {settings.purchases_paused ? t("paused") : t("on")}
            {settings.paused_changed_at ? (
              // Formatted by Node's Intl on the server and the browser's after: the same text, but not worth a hydration error if a version differs.
              <span className="hint" suppressHydrationWarning>
                {" "}
                {t("changed", {
                  time: formatTime(new Date(settings.paused_changed_at), locale, timeZone),
                })}
              </span>
            ) : null}
          </p>
          <NoticeLine notice={pauseNotice} />
          <div className="button-row">
            {settings.purchases_paused ? (
              <button
                type="button"
                className="button primary"
                disabled={isPending || !isHydrated}
                onClick={() => void setPaused(false)}
              >
                {t("resume")}
              </button>
            ) : (
              <button
                type="button"
                className="button secondary"
                disabled={isPending || !isHydrated}
                onClick={() => void setPaused(true)}
              >
                {t("pause")}
              </button>
            )}
          </div>
          {settings.paused_changed_at ? <ZoneNote timeZone={timeZone} /> : null}
        </div>
      </section>
    </>
  );
}
