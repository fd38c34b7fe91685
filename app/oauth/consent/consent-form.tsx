/**
 * The consent form (a plain HTML form: no script needed). Ordinary scopes are listed in plain
 * words; the money and email scopes are separate, unticked checkboxes the person must tick
 * themselves (ticked already when the app holds them today: unticking then withdraws them, as the
 * person's latest decision wins); purchase:write only ever reaches this form for assistants registered through the
 * agent door (authorize-request.ts refuses it for everyone else).
 */
import { SignOutButton } from "@/app/_components/sign-out-button";
import { isLoopback, redirectHost } from "@/server/auth";
import { optInScopes, scopeWords, type Scope } from "@/server/auth";
import type { AuthorizeParameters } from "@/server/oauth";

type Props = {
  request: {
    clientName: string;
    clientKind: "partner" | "agent";
    redirectUri: string;
    scopes: Scope[];
    parameters: AuthorizeParameters;
  };
  /** Permissions the person has not granted this app before, though they connected it (marked New). */
  newScopes?: Scope[];
  /** Opt-in permissions the app holds today: shown ticked; unticking one withdraws it from the app (M8). */
  grantedScopes?: Scope[];
  personEmail: string;
  consentToken: string;
  /** This page's own path, to come back to after switching account. */
  consentPath: string;
};

const optInLabels: Partial<Record<Scope, { title: (app: string) => string; detail: string }>> = {
  "purchase:write": {
    title: (app) => `Let ${app} buy items for me with my saved card`,
    detail:
      "Only within the spending limits you set. Each purchase is held for 24 hours and you can cancel it from its email before you are charged.",
  },
  "alerts:write": {
    title: (app) => `Let ${app} set price alerts for me`,
    detail: "We email you when an item drops to the price you chose. Alerts never buy anything.",
  },
};

/** The mark on a permission the person has not granted this app before. */
const NewMark = ({ scope, newScopes }: { scope: Scope; newScopes: readonly Scope[] }) =>
  newScopes.includes(scope) ? (
    <>
      {" "}
      <span className="badge accent" data-testid="new-permission">
        New
      </span>
    </>
  ) : null;

export function ConsentForm({
  request,
  newScopes = [],
  grantedScopes = [],
  personEmail,
  consentToken,
  consentPath,
}: Props) {
  const app = request.clientName;
  const listed = request.scopes.filter((scope) => !optInScopes.includes(scope));
  const optIns = request.scopes.filter((scope) => optInScopes.includes(scope));
  return (
    <form method="post" action="/oauth/authorize">
      <div className="consent-head">
        <span className="avatar" aria-hidden>
          {app.slice(0, 1).toUpperCase()}
        </span>
        <div>
          <h1 id="consent-title">{app} wants to connect to your account</h1>
          <p className="small muted" style={{ margin: 0 }}>
            {request.clientKind === "agent" ? (
              <span className="badge accent">AI assistant</span>
            ) : (
              <span className="badge">Partner app</span>
            )}{" "}
            · you will return to <strong>{redirectHost(request.redirectUri)}</strong>
          </p>
        </div>
      </div>
      {isLoopback(request.redirectUri) ? (
        <div className="notice warn" style={{ marginBottom: 16 }}>
          <p>
            This app runs on your own computer (it returns to {redirectHost(request.redirectUri)}).
            Approve only if you started it yourself.
          </p>
        </div>
      ) : null}
      {newScopes.length ? (
        <div className="notice info" style={{ marginBottom: 16 }}>
          <p>You connected {app} before. It now also asks for the permissions marked New.</p>
        </div>
      ) : null}
      {listed.length ? (
        <>
          <p className="label" style={{ margin: "0 0 10px" }}>
            If you approve, {app} will be able to:
          </p>
          <ul className="scope-list">
            {listed.map((scope) => (
              <li key={scope}>
                <span className="tick" aria-hidden>
                  ✓
                </span>
                <span>
                  {scopeWords[scope]}
                  <NewMark scope={scope} newScopes={newScopes} />
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {optIns.length ? (
        <div className="opt-ins">
          <p className="label" style={{ margin: 0 }}>
            {app} also asks for these. Tick only what you want to allow:
          </p>
          {optIns.map((scope) => (
            <label className="opt-in" key={scope}>
              <input
                type="checkbox"
                name="grant_scope"
                value={scope}
                defaultChecked={grantedScopes.includes(scope)}
              />
              <span>
                <strong>
                  {optInLabels[scope]?.title(app) ?? scopeWords[scope]}
                  <NewMark scope={scope} newScopes={newScopes} />
                  {grantedScopes.includes(scope) ? (
                    <>
                      {" "}
                      <span className="badge" data-testid="granted-permission">
                        Allowed now
                      </span>
                    </>
                  ) : null}
                </strong>
                <span className="small muted">{optInLabels[scope]?.detail}</span>
                {grantedScopes.includes(scope) ? (
                  <span className="small muted">
                    You allowed this before. Untick it to take it away from {app}.
                  </span>
                ) : null}
              </span>
            </label>
          ))}
        </div>
      ) : null}
      {Object.entries(request.parameters).map(([name, value]) =>
        value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
      )}
      <input type="hidden" name="consent_token" value={consentToken} />
      <div className="button-row split">
        <button type="submit" name="decision" value="deny" className="button secondary">
          Deny
        </button>
        <button type="submit" name="decision" value="approve" className="button primary">
          Approve
        </button>
      </div>
      <p className="fine-print">
        Signed in as {personEmail}.{" "}
        <SignOutButton callbackUrl={consentPath} label="Not you?" className="link-button" /> You can
        disconnect {app} at any time under Account → Connected apps. {app} never sees your password
        or card number.
      </p>
    </form>
  );
}
