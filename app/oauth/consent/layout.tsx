import type { ReactNode } from "react";
import "../../ui.css";

export default function ConsentLayout({ children }: { children: ReactNode }) {
  return <main className="auth-shell">{children}</main>;
}
