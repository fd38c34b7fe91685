"use client";
import { signOut } from "next-auth/react";

/** Ends the shopper session (next-auth's CSRF-protected sign-out) and goes home. */
export function SignOutButton() {
  return (
    <button type="button" className="button secondary" onClick={() => void signOut({ callbackUrl: "/" })}>
      Sign out
    </button>
  );
}
