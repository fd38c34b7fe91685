import type { ReactNode } from "react";
import { Topbar } from "@/app/_components/topbar";
import "../ui.css";

/** Sign-in, sign-up and the pages emailed links open: one centred card. */
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <Topbar />
      <main className="auth-shell">{children}</main>
    </>
  );
}
