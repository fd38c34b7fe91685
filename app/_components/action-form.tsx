"use client";
/**
 * Forms that post to a server action and show its answer in place: a message, errors next to the
 * fields they concern, and optionally a value shown once (a new client secret). Works with the
 * ActionState every action in app/ returns. The action is started from onSubmit rather than as the
 * form's `action`, so a failed submission keeps what the person typed (React resets forms after
 * form actions).
 */
import {
  createContext,
  startTransition,
  useActionState,
  useContext,
  type FormEvent,
  type ReactNode,
} from "react";
import { useFieldErrorText } from "./field-error-text";
import { useHydrated } from "./use-hydrated";
import type { ActionState } from "@/app/_trpc/action-state";

type Action = (state: ActionState, data: FormData) => Promise<ActionState>;

const StateContext = createContext<{ state: ActionState; pending: boolean }>({
  state: { status: "idle" },
  pending: false,
});

export function ActionForm({
  action,
  children,
  className = "form",
  resetOnSuccess = false,
}: {
  action: Action;
  children: ReactNode;
  className?: string;
  resetOnSuccess?: boolean;
}) {
  const [state, dispatch, pending] = useActionState(action, { status: "idle" } as ActionState);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    startTransition(() => dispatch(data));
  };
  return (
    <StateContext.Provider value={{ state, pending }}>
      <form
        onSubmit={submit}
        className={className}
        noValidate
        key={resetOnSuccess && state.status === "ok" ? state.at : undefined}
      >
        {children}
      </form>
    </StateContext.Provider>
  );
}

/** A labelled input whose error (from the action's `fields`) appears under it. */
export function Field({
  name,
  label,
  hint,
  type = "text",
  defaultValue,
  autoComplete,
  required,
  placeholder,
  id = `field-${name}`,
  children,
}: {
  name: string;
  label: string;
  hint?: string;
  type?: string;
  defaultValue?: string;
  autoComplete?: string;
  required?: boolean;
  placeholder?: string;
  id?: string;
  children?: ReactNode;
}) {
  const { state } = useContext(StateContext);
  const error = useFieldErrorText()(state.fields?.[name]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children ?? (
        <input
          id={id}
          name={name}
          type={type}
          className="input"
          defaultValue={defaultValue}
          autoComplete={autoComplete}
          required={required}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      )}
      {hint && !error ? <span className="hint">{hint}</span> : null}
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** The answer of the last submission: a message, and a one-time value when the action returned one. */
export function FormMessage({ okTone = "ok" }: { okTone?: "ok" | "info" }) {
  const { state } = useContext(StateContext);
  const { fixFields } = useFieldErrorText();
  if (state.status === "idle" || (!state.message && !state.reveal)) return null;
  return (
    <div role={state.status === "error" ? "alert" : "status"} className="form-message">
      {state.message ? (
        <div className={`notice ${state.status === "error" ? "error" : okTone}`}>
          {/* A refusal with fields says so in the page's language; the fields say why. */}
          <p>{state.status === "error" && state.fields ? fixFields : state.message}</p>
        </div>
      ) : null}
      {state.reveal ? (
        <div className="secret" style={{ marginTop: 12 }}>
          <span className="hint">{state.reveal.label}</span>
          <code data-testid="revealed-secret">{state.reveal.value}</code>
          <span className="hint">
            Copy it now: it is shown only this once. We keep only a hash.
          </span>
        </div>
      ) : null}
    </div>
  );
}

export function SubmitButton({
  children,
  className = "button primary",
  name,
  value,
  once = false,
}: {
  children: ReactNode;
  className?: string;
  name?: string;
  value?: string;
  /** A form done once it succeeded (confirming an email): the button goes, leaving only the message. */
  once?: boolean;
}) {
  const { pending, state } = useContext(StateContext);
  const isHydrated = useHydrated();
  if (once && state.status === "ok") return null;
  return (
    <button
      type="submit"
      className={className}
      disabled={pending || !isHydrated}
      name={name}
      value={value}
    >
      {children}
    </button>
  );
}
