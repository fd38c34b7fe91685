import type { ReactNode } from "react";
import "../../ui.css";
import "./consent.css";

/** The consent page stands alone (no account navigation): the brand, then the decision, in the reader's language. */
export default function ConsentLayout({ children }: { children: ReactNode }) {
  return (
    <main className="auth-shell consent-page">
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
