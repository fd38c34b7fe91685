/** The bar above shopper and partner pages: the brand, and who is signed in. */
import Link from "next/link";
import { useTranslations } from "next-intl";
import { SignOutButton } from "./sign-out-button";

export function Topbar({ email }: { email?: string }) {
  const t = useTranslations("common");
  return (
    <header className="topbar">
      <Link href="/" className="brand">
        <span className="brand-mark" aria-hidden>
          S
        </span>
        {t("brand")}
      </Link>
      <nav className="topbar-user" aria-label={t("accountNav")}>
        {email ? (
          <>
            <Link href="/account">{email}</Link>
            <SignOutButton />
          </>
        ) : (
          <Link href="/sign-in" className="button secondary">
            {t("signIn")}
          </Link>
        )}
      </nav>
    </header>
  );
}
