"use client";
/**
 * The sandbox's test-card form: number, expiry and CVC sent through @trpc/client (POST with a JSON
 * body: the number never travels in a URL or a server action). Self-contained, so the processor's
 * own form (Stripe's Payment Element) can sit beside it as another panel: it tells its parent what
 * was saved through `onSaved` and shows a refusal itself.
 *
 * The inputs are uncontrolled and read from the form's FormData at submit: what a shopper typed
 * while the page was still server HTML survives hydration (React leaves the value of an
 * uncontrolled input alone when it hydrates; controlled ones were reset to their empty state and
 * the card was submitted blank, seen in CI). The submit button stays disabled until hydration.
 */
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { useFieldErrorText } from "@/app/_components/field-error-text";
import { useHydrated } from "@/app/_components/use-hydrated";
import { dashboardClient, fieldErrorsOf, messageOf } from "@/app/_trpc/client";
import type { TSavedCardResponse } from "@/server/accounts";
import { NoticeLine, type Notice } from "../notice-line";

type FieldProps = {
  name: string;
  label: string;
  error?: string;
  hint: string;
  autoComplete: string;
  placeholder: string;
};

function CardField({ name, label, error: reason, hint, autoComplete, placeholder }: FieldProps) {
  const error = useFieldErrorText()(reason);
  const id = `field-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        className="input"
        inputMode="numeric"
        autoComplete={autoComplete}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-${error ? "error" : "hint"}`}
      />
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}

/** The typed value of one field of the submitted form ("" when absent). */
const typed = (data: FormData, name: string) => String(data.get(name) ?? "");

/** A month or year as typed; blank becomes NaN so the server names the field rather than reading 0. */
const whole = (value: string) => Number(value.trim() || Number.NaN);

export function SandboxCardForm({
  replacing,
  disabled = false,
  onSaved,
}: {
  replacing: boolean;
  disabled?: boolean;
  onSaved: (saved: TSavedCardResponse) => void;
}) {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [isPending, setIsPending] = useState(false);
  const isHydrated = useHydrated();
  const t = useTranslations("account.card");
  const { fixFields } = useFieldErrorText();

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = {
      number: typed(data, "number"),
      exp_month: whole(typed(data, "exp_month")),
      exp_year: whole(typed(data, "exp_year")),
      cvc: typed(data, "cvc"),
    };
    setIsPending(true);
    setNotice(null);
    try {
      const saved = await dashboardClient.account.saveCard.mutate(input);
      form.reset();
      setFields({});
      onSaved(saved);
    } catch (error) {
      const refused = fieldErrorsOf(error);
      setFields(refused ?? {});
      // A refused card keeps what was typed but its CVC, which is never kept longer than one attempt.
      const cvc = form.elements.namedItem("cvc");
      if (cvc instanceof HTMLInputElement) cvc.value = "";
      setNotice({
        tone: "error",
        text: refused ? fixFields : messageOf(error),
      });
    } finally {
      setIsPending(false);
    }
  };

  return (
    <form
      className="form"
      style={{ marginTop: 16 }}
      onSubmit={(event) => void save(event)}
      noValidate
    >
      <NoticeLine notice={notice} />
      <p className="hint">{t("sandboxHint")}</p>
      <CardField
        name="number"
        label={t("number")}
        error={fields.number}
        hint={t("numberHint")}
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
      />
      <div className="row">
        <CardField
          name="exp_month"
          label={t("expMonth")}
          error={fields.exp_month}
          hint={t("expMonthHint")}
          autoComplete="cc-exp-month"
          placeholder="12"
        />
        <CardField
          name="exp_year"
          label={t("expYear")}
          error={fields.exp_year}
          hint={t("expYearHint")}
          autoComplete="cc-exp-year"
          placeholder="2030"
        />
      </div>
      <CardField
        name="cvc"
        label={t("cvc")}
        error={fields.cvc}
        hint={t("cvcHint")}
        autoComplete="cc-csc"
        placeholder="123"
      />
      <div>
        <button
          type="submit"
          className="button primary"
          disabled={isPending || disabled || !isHydrated}
        >
          {replacing ? t("replace") : t("save")}
        </button>
      </div>
    </form>
  );
}
