"use client";
/** Email and password through next-auth's credentials provider; errors shown in place. */
import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { useHydrated } from "@/app/_components/use-hydrated";

/** next-auth's error codes → the keys of what the page says. */
const errorKeys = {
  CredentialsSignin: "credentials",
  TooManyAttempts: "tooManyAttempts",
} as const;

const errorKeyOf = (code: string | null | undefined) =>
  code && Object.hasOwn(errorKeys, code) ? errorKeys[code as keyof typeof errorKeys] : "failed";

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const t = useTranslations("auth.signIn");
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const isHydrated = useHydrated();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    const result = await signIn("credentials", {
      email: data.get("email"),
      password: data.get("password"),
      redirect: false,
      callbackUrl,
    });
    if (result?.ok && !result.error) {
      window.location.assign(callbackUrl);
      return;
    }
    setPending(false);
    setError(t(`errors.${errorKeyOf(result?.error)}`));
  };
  return (
    <form className="form" onSubmit={submit}>
      {error ? (
        <div className="notice error" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="email">{t("email")}</label>
        <input
          id="email"
          name="email"
          type="email"
          className="input"
          autoComplete="email"
          required
          autoFocus
        />
      </div>
      <div className="field">
        <label htmlFor="password">{t("password")}</label>
        <input
          id="password"
          name="password"
          type="password"
          className="input"
          autoComplete="current-password"
          required
        />
      </div>
      <button type="submit" className="button primary block" disabled={pending || !isHydrated}>
        {pending ? t("pending") : t("submit")}
      </button>
    </form>
  );
}
