/** The bar above shopper and partner pages: the brand, and who is signed in. */
import Link from "next/link";
import { SignOutButton } from "./sign-out-button";

export function Topbar({ email }: { email?: string }) {
  return (
    <header className="topbar">
      <Link href="/" className="brand">
        <span className="brand-mark" aria-hidden>
          S
        </span>
        Shopping API
      </Link>
      <nav className="topbar-user" aria-label="Account">
        {email ? (
          <>
            <Link href="/account">{email}</Link>
            <SignOutButton />
          </>
        ) : (
          <Link href="/sign-in" className="button secondary">
            Sign in
          </Link>
        )}
      </nav>
    </header>
  );
}
