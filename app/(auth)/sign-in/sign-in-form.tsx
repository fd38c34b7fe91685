"use client";
/** Email and password through next-auth's credentials provider; errors shown in place. */
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { useHydrated } from "@/app/_components/use-hydrated";

const messages: Record<string, string> = {
  CredentialsSignin: "That email and password do not match an account.",
  TooManyAttempts:
    "Too many sign-in attempts from here. Wait a few minutes, or reset your password.",
};

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
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
    setError(messages[result?.error ?? ""] ?? "Sign-in failed. Please try again.");
  };
  return (
    <form className="form" onSubmit={submit}>
      {error ? (
        <div className="notice error" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="email">Email</label>
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
        <label htmlFor="password">Password</label>
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
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
