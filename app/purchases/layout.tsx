import type { ReactNode } from "react";
import { Topbar } from "@/app/_components/topbar";
import { shopperPageCaller } from "@/app/_trpc/server";
import { currentPersonId } from "@/server/auth";
import "../ui.css";
import "./purchase.css";

/**
 * The pages an emailed purchase link opens (the cancel page): the site's bar and one centred card.
 * The link works signed out (its token is the proof); a signed-in visitor sees who they are.
 */
export default async function PurchaseLinkLayout({ children }: { children: ReactNode }) {
  const email = (await currentPersonId())
    ? await (
        await shopperPageCaller("/account/purchases")
      ).account
        .getMe()
        .then((me) => me.email)
        .catch(() => undefined)
    : undefined;
  return (
    <div className="purchase-frame">
      <Topbar email={email} />
      <main className="auth-shell">{children}</main>
    </div>
  );
}
