import type { ReactNode } from "react";
import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { SideNav } from "@/app/_components/side-nav";
import { Topbar } from "@/app/_components/topbar";
import { shopperPageCaller } from "@/app/_trpc/server";
import { resendConfirmationAction } from "./actions";
import "../ui.css";

export const dynamic = "force-dynamic";

const links = [
  { href: "/account", label: "Profile and sizes" },
  { href: "/account/address", label: "Shipping address" },
  { href: "/account/limits", label: "Spending limits" },
  { href: "/account/card", label: "Saved card" },
  { href: "/account/purchases", label: "Assistant purchases" },
  { href: "/account/alerts", label: "Price alerts" },
  { href: "/account/watches", label: "Price watches" },
  { href: "/account/apps", label: "Connected apps" },
];

/** The signed-in shopper's area; anyone else is sent to sign in and brought back. */
export default async function AccountLayout({ children }: { children: ReactNode }) {
  // Signed out: Next's redirect to sign in (shopperPageCaller), never a logged 401.
  const me = await (await shopperPageCaller("/account")).account.getMe();
  return (
    <>
      <Topbar email={me.email} />
      <div className="account">
        <SideNav links={links} />
        <main>
          {!me.email_verified ? (
            <div className="notice warn" style={{ marginBottom: 16 }}>
              <ActionForm action={resendConfirmationAction} className="form">
                <p>
                  Confirm <strong>{me.email}</strong> with the link we emailed you. Until then you
                  cannot approve apps.
                </p>
                <FormMessage okTone="info" />
                <div>
                  <SubmitButton className="button secondary">Send a new link</SubmitButton>
                </div>
              </ActionForm>
            </div>
          ) : null}
          {children}
        </main>
      </div>
    </>
  );
}
