import type { ReactNode } from "react";
import { Topbar } from "@/app/_components/topbar";
import "../ui.css";

/** The pages a price watch's emailed links open: the site's bar and one centred card, as sign-in's. */
export default function PriceWatchesLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <Topbar />
      <main className="auth-shell">{children}</main>
    </>
  );
}
