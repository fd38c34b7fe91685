import type { ReactNode } from "react";
import "../../ui.css";

/** The consent page stands alone (no account navigation): the brand, then the decision. */
export default function ConsentLayout({ children }: { children: ReactNode }) {
  return (
    <main className="auth-shell">
      <div style={{ width: "100%", maxWidth: 560 }}>
        <div className="consent-brand">
          <span className="brand">
            <span className="brand-mark" aria-hidden>
              S
            </span>
            Shopping API
          </span>
        </div>
        {children}
      </div>
    </main>
  );
}
