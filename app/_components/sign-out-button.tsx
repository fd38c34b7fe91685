"use client";
import { signOut } from "next-auth/react";
import { useHydrated } from "./use-hydrated";

/** Ends the shopper session (next-auth's CSRF-protected sign-out), then goes to `callbackUrl` (home by default). */
export function SignOutButton({
  callbackUrl = "/",
  label = "Sign out",
  className = "button secondary",
}: {
  callbackUrl?: string;
  label?: string;
  className?: string;
}) {
  // Disabled until hydrated: a click before then would do nothing and leave the person signed in.
  const isHydrated = useHydrated();
  return (
    <button
      type="button"
      className={className}
      disabled={!isHydrated}
      onClick={() => void signOut({ callbackUrl })}
    >
      {label}
    </button>
  );
}
