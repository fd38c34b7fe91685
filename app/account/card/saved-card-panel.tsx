"use client";
/**
 * The saved card (brand, last four, expiry), its remove button, and the form that saves a card.
 * Both call the dashboard procedures through @trpc/client (POST with a JSON body: the number never
 * travels in a URL or a server action) and show the result in place. The number and CVC are
 * cleared from the form once sent. In production the form is not shown: only the processor's own
 * form may take a card number, and it is not wired yet.
 */
import { useState, type FormEvent } from "react";
import { useHydrated } from "@/app/_components/use-hydrated";
import { dashboardClient, fieldErrorsOf, messageOf } from "@/app/_trpc/client";
import { brandLabel, type TSavedCard, type TSavedCardResponse } from "@/server/routers/account/saved-card.schema";
import { NoticeLine, type Notice } from "../notice-line";

type FieldProps = { name: string; label: string; value: string; error?: string; hint: string; autoComplete: string; placeholder: string; onChange: (value: string) => void };

function CardField({ name, label, value, error, hint, autoComplete, placeholder, onChange }: FieldProps) {
  const id = `field-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} className="input" inputMode="numeric" autoComplete={autoComplete} placeholder={placeholder} value={value} onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined} aria-describedby={`${id}-${error ? "error" : "hint"}`} />
      {error ? <span className="field-error" id={`${id}-error`}>{error}</span> : <span className="hint" id={`${id}-hint`}>{hint}</span>}
    </div>
  );
}

/** "Visa •••• 4242". */
const cardName = (card: TSavedCard) => `${brandLabel(card.brand)} •••• ${card.last4}`;

const emptyForm = { number: "", exp_month: "", exp_year: "", cvc: "" };

function SavedCardFacts({ card, isPending, onRemove }: { card: TSavedCard | null; isPending: boolean; onRemove: () => void }) {
  if (!card) return <p className="empty" data-testid="saved-card">No card saved. Assistants cannot buy for you until you save one.</p>;
  return (
    <div className="panel-head">
      <div data-testid="saved-card">
        <strong>{cardName(card)}</strong>
        <div className="hint">Expires {String(card.exp_month).padStart(2, "0")}/{card.exp_year}</div>
      </div>
      <button type="button" className="button secondary" disabled={isPending} onClick={onRemove}>Remove card</button>
    </div>
  );
}

export function SavedCardPanel({ initial }: { initial: TSavedCardResponse }) {
  const [card, setCard] = useState(initial.card);
  const [form, setForm] = useState(emptyForm);
  const [fields, setFields] = useState<Record<string, string>>({});
  // What is saved or removed shows beside the card; a refused save shows in the form.
  const [formNotice, setFormNotice] = useState<Notice>(null);
  const [cardNotice, setCardNotice] = useState<Notice>(null);
  const [isPending, setIsPending] = useState(false);
  const isHydrated = useHydrated();
  const set = (name: keyof typeof emptyForm) => (value: string) => setForm((current) => ({ ...current, [name]: value }));

  const run = async (call: () => Promise<TSavedCardResponse>, done: (saved: TSavedCardResponse) => string, setRefusal: (notice: Notice) => void) => {
    setIsPending(true);
    setFormNotice(null);
    setCardNotice(null);
    try {
      const saved = await call();
      setCard(saved.card);
      setForm(emptyForm);
      setFields({});
      setCardNotice({ tone: "ok", text: done(saved) });
    } catch (error) {
      const refused = fieldErrorsOf(error);
      setFields(refused ?? {});
      setForm((current) => ({ ...current, cvc: "" }));
      setRefusal({ tone: "error", text: refused ? "Please correct the highlighted fields." : messageOf(error) });
    } finally {
      setIsPending(false);
    }
  };

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = { number: form.number, exp_month: Number(form.exp_month.trim() || Number.NaN), exp_year: Number(form.exp_year.trim() || Number.NaN), cvc: form.cvc };
    void run(() => dashboardClient.account.saveCard.mutate(input), (saved) => `${saved.card ? cardName(saved.card) : "Your card"} is saved.`, setFormNotice);
  };
  const remove = () => void run(() => dashboardClient.account.removeCard.mutate(), () => "Your card is removed.", setCardNotice);

  return (
    <>
      <section className="panel" aria-labelledby="card-title">
        <h2 id="card-title">Card on file</h2>
        <SavedCardFacts card={card} isPending={isPending} onRemove={remove} />
        <div style={{ marginTop: 12 }}>
          <NoticeLine notice={cardNotice} />
        </div>
      </section>
      <section className="panel" aria-labelledby="card-form-title">
        <h2 id="card-form-title">{card ? "Replace the card" : "Save a card"}</h2>
        {initial.card_entry === "processor_form" ? (
          <p className="notice warn">
            Cards are saved through the payment processor&apos;s own secure form, which is not available on this page yet. This service never takes a card number directly.
          </p>
        ) : (
          <form className="form" style={{ marginTop: 16 }} onSubmit={save} noValidate>
            <NoticeLine notice={formNotice} />
            <p className="hint">
              Sandbox: use a test card. 4242 4242 4242 4242 pays; 4000 0025 0000 3155 asks for authentication (assistants cannot provide it);
              4000 0000 0000 0002 is declined and cannot be saved. Any future expiry and any three digits.
            </p>
            <CardField name="number" label="Card number" value={form.number} error={fields.number} hint="12 to 19 digits" autoComplete="cc-number" placeholder="4242 4242 4242 4242" onChange={set("number")} />
            <div className="row">
              <CardField name="exp_month" label="Expiry month" value={form.exp_month} error={fields.exp_month} hint="1 to 12" autoComplete="cc-exp-month" placeholder="12" onChange={set("exp_month")} />
              <CardField name="exp_year" label="Expiry year" value={form.exp_year} error={fields.exp_year} hint="Like 2030" autoComplete="cc-exp-year" placeholder="2030" onChange={set("exp_year")} />
            </div>
            <CardField name="cvc" label="CVC" value={form.cvc} error={fields.cvc} hint="3 or 4 digits" autoComplete="cc-csc" placeholder="123" onChange={set("cvc")} />
            <div>
              <button type="submit" className="button primary" disabled={isPending || !isHydrated}>{card ? "Replace card" : "Save card"}</button>
            </div>
          </form>
        )}
      </section>
    </>
  );
}
