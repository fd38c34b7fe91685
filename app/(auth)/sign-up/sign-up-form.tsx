"use client";
/**
 * Sign-up through the server action, then sign-in with the same credentials so the person goes on
 * to where they were going (the confirmation email is on its way). When the address already had
 * an account the sign-in fails quietly and the page only says to check the inbox: it never tells
 * a visitor whether an address is registered.
 */
import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { startTransition, useActionState, useEffect, useRef } from "react";
import { useFieldErrorText } from "@/app/_components/field-error-text";
import { useHydrated } from "@/app/_components/use-hydrated";
import type { ActionState } from "@/app/_trpc/action-state";
import { signUpAction } from "../actions";

export function SignUpForm({ callbackUrl }: { callbackUrl: string }) {
  const t = useTranslations("auth.signUp");
  const fieldErrorText = useFieldErrorText();
  const [state, action, pending] = useActionState(signUpAction, { status: "idle" } as ActionState);
  const credentials = useRef<{ email: string; password: string }>(undefined);
  const isHydrated = useHydrated();
  useEffect(() => {
    if (state.status !== "ok" || !credentials.current) return;
    const { email, password } = credentials.current;
    credentials.current = undefined;
    void signIn("credentials", { email, password, redirect: false, callbackUrl }).then((result) => {
      if (result?.ok && !result.error) window.location.assign(callbackUrl);
    });
  }, [state, callbackUrl]);
  if (state.status === "ok") {
    return (
      <div className="notice ok" role="status">
        <p>{state.message}</p>
        <p>{t("linkWorks")}</p>
      </div>
    );
  }
  const error = (name: string) => fieldErrorText(state.fields?.[name]);
  return (
    <form
      className="form"
      noValidate
      onSubmit={(event) => {
        // Not a form action: React would clear the fields after a refused submission.
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        credentials.current = {
          email: String(data.get("email")),
          password: String(data.get("password")),
        };
        startTransition(() => action(data));
      }}
    >
      {state.status === "error" ? (
        <div className="notice error" role="alert">
          <p>{state.fields ? fieldErrorText.fixFields : state.message}</p>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="name">{t("name")}</label>
        <input id="name" name="name" className="input" autoComplete="name" />
        {error("name") ? (
          <span className="field-error">{error("name")}</span>
        ) : (
          <span className="hint">{t("nameHint")}</span>
        )}
      </div>
      <div className="field">
        <label htmlFor="email">{t("email")}</label>
        <input
          id="email"
          name="email"
          type="email"
          className="input"
          autoComplete="email"
          required
          aria-invalid={error("email") ? true : undefined}
        />
        {error("email") ? <span className="field-error">{error("email")}</span> : null}
      </div>
      <div className="field">
        <label htmlFor="password">{t("password")}</label>
        <input
          id="password"
          name="password"
          type="password"
          className="input"
          autoComplete="new-password"
          required
          aria-invalid={error("password") ? true : undefined}
        />
        {error("password") ? (
          <span className="field-error">{error("password")}</span>
        ) : (
          <span className="hint">{t("passwordHint")}</span>
        )}
      </div>
      <button type="submit" className="button primary block" disabled={pending || !isHydrated}>
        {pending ? t("pending") : t("submit")}
      </button>
    </form>
  );
}
