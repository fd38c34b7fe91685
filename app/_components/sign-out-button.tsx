"use client";
import { signOut } from "next-auth/react";

/** Ends the shopper session (next-auth's CSRF-protected sign-out), then goes to `callbackUrl` (home by default). */
export function SignOutButton({ callbackUrl = "/", label = "Sign out", className = "button secondary" }: { callbackUrl?: string; label?: string; className?: string }) {
  return (
    <button type="button" className={className} onClick={() => void signOut({ callbackUrl })}>
      {label}
    </button>
  );
}
