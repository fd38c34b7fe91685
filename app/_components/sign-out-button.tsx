"use client";
import { signOut } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useHydrated } from "./use-hydrated";

/** Ends the shopper session (next-auth's CSRF-protected sign-out), then goes to `callbackUrl` (home by default); "Sign out" in the page's language unless `label` says otherwise. */
export function SignOutButton({
  callbackUrl = "/",
  label,
  className = "button secondary",
}: {
  callbackUrl?: string;
  label?: string;
  className?: string;
}) {
  const t = useTranslations("common");
  // Disabled until hydrated: a click before then would do nothing and leave the person signed in.
  const isHydrated = useHydrated();
  return (
    <button
      type="button"
      className={className}
      disabled={!isHydrated}
      onClick={() => void signOut({ callbackUrl })}
    >
      {label ?? t("signOut")}
    </button>
  );
}
