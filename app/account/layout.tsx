import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { SideNav } from "@/app/_components/side-nav";
import { Topbar } from "@/app/_components/topbar";
import { shopperPageCaller } from "@/app/_trpc/server";
import { resendConfirmationAction } from "./actions";
import "../ui.css";

export const dynamic = "force-dynamic";

const sections = [
  ["/account", "profile"],
  ["/account/address", "address"],
  ["/account/limits", "limits"],
  ["/account/card", "card"],
  ["/account/purchases", "purchases"],
  ["/account/alerts", "alerts"],
  ["/account/watches", "watches"],
  ["/account/watch-groups", "watchGroups"],
  ["/account/search-watches", "searchWatches"],
  ["/account/apps", "apps"],
] as const;

/** The signed-in shopper's area; anyone else is sent to sign in and brought back. */
export default async function AccountLayout({ children }: { children: ReactNode }) {
  // Signed out: Next's redirect to sign in (shopperPageCaller), never a logged 401.
  const me = await (await shopperPageCaller("/account")).account.getMe();
  const t = await getTranslations("account");
  const links = sections.map(([href, key]) => ({ href, label: t(`nav.${key}`) }));
  return (
    <>
      <Topbar email={me.email} />
      <div className="account">
        <SideNav links={links} label={t("nav.label")} />
        <main>
          {!me.email_verified ? (
            <div className="notice warn" style={{ marginBottom: 16 }}>
              <ActionForm action={resendConfirmationAction} className="form">
                <p>
                  {t.rich("unconfirmed.text", {
                    email: me.email,
                    strong: (chunks) => <strong>{chunks}</strong>,
                  })}
                </p>
                <FormMessage okTone="info" />
                <div>
                  <SubmitButton className="button secondary">
                    {t("unconfirmed.resend")}
                  </SubmitButton>
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
