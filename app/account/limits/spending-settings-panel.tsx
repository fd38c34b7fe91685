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
import { useState, type FormEvent } from "react";
import { useHydrated } from "@/app/_components/use-hydrated";
import { dashboardClient, fieldErrorsOf, messageOf } from "@/app/_trpc/client";
import type { TSpendingSettingsResponse } from "@/server/accounts";
import { NoticeLine, type Notice } from "../notice-line";
import { dollars } from "./dollars";

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
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
      />
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : (
        <span className="hint" id={`${id}-hint`}>
          Dollars, at most two decimals, up to $50,000.00
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

export function SpendingSettingsPanel({ initial }: { initial: TSpendingSettingsResponse }) {
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
      setLimitsNotice({ tone: "ok", text: "Your spending limits are saved." });
    } catch (error) {
      const refused = fieldErrorsOf(error);
      setFields(refused ?? {});
      setLimitsNotice({
        tone: "error",
        text: refused ? "Please correct the highlighted fields." : messageOf(error),
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
        text: saved.purchases_paused
          ? "Assistant purchases are paused."
          : "Assistant purchases are resumed.",
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
        <h2 id="limits-title">Limits</h2>
        <dl className="facts" data-testid="saved-limits">
          <dt>Per order</dt>
          <dd>{settings.limit_per_order ? dollars(settings.limit_per_order.amount) : "Not set"}</dd>
          <dt>Per rolling 30 days</dt>
          <dd>
            {settings.limit_per_30_days ? dollars(settings.limit_per_30_days.amount) : "Not set"}
          </dd>
        </dl>
        {!hasLimits ? (
          <p className="hint">Assistants cannot buy for you until both limits are set.</p>
        ) : null}
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
              label="Limit per order (CAD)"
              defaultValue={initial.limit_per_order?.amount ?? ""}
              error={fields.limit_per_order}
            />
            <LimitField
              name="limit_per_30_days"
              label="Limit per rolling 30 days (CAD)"
              defaultValue={initial.limit_per_30_days?.amount ?? ""}
              error={fields.limit_per_30_days}
            />
          </div>
          <div>
            <button type="submit" className="button primary" disabled={isPending || !isHydrated}>
              Save limits
            </button>
          </div>
        </form>
      </section>
      <section className="panel" aria-labelledby="pause-title">
        <h2 id="pause-title">Assistant purchases</h2>
        <div className="form">
          <p data-testid="purchases-state">
            {settings.purchases_paused
              ? "Paused: assistants cannot buy for you."
              : "On: assistants can buy for you within your limits."}
            {settings.paused_changed_at ? (
              <span className="hint">
                {" "}
                Changed {settings.paused_changed_at.slice(0, 16).replace("T", " ")} UTC.
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
                Resume assistant purchases
              </button>
            ) : (
              <button
                type="button"
                className="button secondary"
                disabled={isPending || !isHydrated}
                onClick={() => void setPaused(true)}
              >
                Pause assistant purchases
              </button>
            )}
          </div>
        </div>
      </section>
    </>
  );
}
