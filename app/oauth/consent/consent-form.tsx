/**
 * The consent form (a plain HTML form: no script needed). Ordinary scopes are listed in plain
 * words; the money and email scopes are separate, unticked checkboxes the person must tick
 * themselves (ticked already when the app holds them today: unticking then withdraws them, as the
 * person's latest decision wins); purchase:write only ever reaches this form for assistants registered through the
 * agent door (authorize-request.ts refuses it for everyone else).
 */
import { useTranslations } from "next-intl";
import { SignOutButton } from "@/app/_components/sign-out-button";
import { isLoopback, redirectHost } from "@/server/auth";
import { optInScopes, type Scope } from "@/server/auth";
import type { Messages } from "@/server/core/messages";
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

/** The message key of a scope's words ("orders:read" -> "orders_read"): the scope names themselves stay as the API has them. */
type ScopeKey = keyof Messages["consent"]["scope"];
type OptInKey = keyof Messages["consent"]["optIn"];
const scopeKey = (scope: Scope) => scope.replace(":", "_") as ScopeKey;
const isOptInKey = (key: string): key is OptInKey =>
  key === "purchase_write" || key === "alerts_write";

/** The mark on a permission the person has not granted this app before. */
function NewMark({ scope, newScopes }: { scope: Scope; newScopes: readonly Scope[] }) {
  const t = useTranslations("consent");
  return newScopes.includes(scope) ? (
    <>
      {" "}
      <span className="badge accent" data-testid="new-permission">
        {t("new")}
      </span>
    </>
  ) : null;
}

export function ConsentForm({
  request,
  newScopes = [],
  grantedScopes = [],
  personEmail,
  consentToken,
  consentPath,
}: Props) {
  const t = useTranslations("consent");
  const app = request.clientName;
  const host = redirectHost(request.redirectUri);
  const listed = request.scopes.filter((scope) => !optInScopes.includes(scope));
  const optIns = request.scopes.filter((scope) => optInScopes.includes(scope));
  return (
    <form method="post" action="/oauth/authorize">
      <div className="consent-head">
        <span className="avatar" aria-hidden>
          {app.slice(0, 1).toUpperCase()}
        </span>
        <div>
          <h1 id="consent-title">{t("heading", { app })}</h1>
          <p className="small muted" style={{ margin: 0 }}>
            {request.clientKind === "agent" ? (
              <span className="badge accent">{t("assistant")}</span>
            ) : (
              <span className="badge">{t("partner")}</span>
            )}{" "}
            · {t.rich("returnTo", { host, strong: (chunks) => <strong>{chunks}</strong> })}
          </p>
        </div>
      </div>
      {isLoopback(request.redirectUri) ? (
        <div className="notice warn" style={{ marginBottom: 16 }}>
          <p>{t("loopback", { host })}</p>
        </div>
      ) : null}
      {newScopes.length ? (
        <div className="notice info" style={{ marginBottom: 16 }}>
          <p>{t("connectedBefore", { app })}</p>
        </div>
      ) : null}
      {listed.length ? (
        <>
          <p className="label" id="able-to" style={{ margin: "0 0 10px" }}>
            {t("ableTo", { app })}
          </p>
          <ul className="scope-list" aria-labelledby="able-to">
            {listed.map((scope) => (
              <li key={scope}>
                <span className="tick" aria-hidden>
                  ✓
                </span>
                <span>
                  {t(`scope.${scopeKey(scope)}`)}
                  <NewMark scope={scope} newScopes={newScopes} />
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {optIns.length ? (
        <fieldset className="opt-ins">
          <legend className="label" style={{ margin: 0 }}>
            {t("alsoAsks", { app })}
          </legend>
          {optIns.map((scope) => {
            const key = scopeKey(scope);
            const isGranted = grantedScopes.includes(scope);
            return (
              <label className="opt-in" key={scope}>
                <input
                  type="checkbox"
                  name="grant_scope"
                  value={scope}
                  defaultChecked={isGranted}
                />
                <span>
                  <strong>
                    {isOptInKey(key) ? t(`optIn.${key}.title`, { app }) : t(`scope.${key}`)}
                    <NewMark scope={scope} newScopes={newScopes} />
                    {isGranted ? (
                      <>
                        {" "}
                        <span className="badge" data-testid="granted-permission">
                          {t("allowedNow")}
                        </span>
                      </>
                    ) : null}
                  </strong>
                  {isOptInKey(key) ? (
                    <span className="small muted">{t(`optIn.${key}.detail`)}</span>
                  ) : null}
                  {isGranted ? (
                    <span className="small muted">{t("allowedBefore", { app })}</span>
                  ) : null}
                </span>
              </label>
            );
          })}
        </fieldset>
      ) : null}
      {Object.entries(request.parameters).map(([name, value]) =>
        value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
      )}
      <input type="hidden" name="consent_token" value={consentToken} />
      <div className="button-row split" role="group" aria-label={t("decision")}>
        <button type="submit" name="decision" value="deny" className="button secondary">
          {t("deny")}
        </button>
        <button type="submit" name="decision" value="approve" className="button primary">
          {t("approve")}
        </button>
      </div>
      <p className="fine-print">
        {t("signedInAs", { email: personEmail })}{" "}
        <SignOutButton callbackUrl={consentPath} label={t("notYou")} className="link-button" />{" "}
        {t("finePrint", { app })}
      </p>
    </form>
  );
}
