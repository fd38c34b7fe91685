import type { ReactNode } from "react";
import { Topbar } from "@/app/_components/topbar";
import "../ui.css";
import "./purchase.css";

/** The pages an emailed purchase link opens (the cancel page): the site's bar and one centred card. */
export default function PurchaseLinkLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <Topbar />
      <main className="auth-shell">{children}</main>
    </>
  );
}
