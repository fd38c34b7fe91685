import { getLocale, getTranslations } from "next-intl/server";
import Link from "next/link";
import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { ZoneNote } from "@/app/_components/zone-note";
import { shopperPageCaller } from "@/app/_trpc/server";
import { isScope } from "@/server/auth";
import { formatTime, type Locale } from "@/server/core/locale";
import { disconnectAppAction } from "../actions";

export const dynamic = "force-dynamic";
export const generateMetadata = async () => ({
  title: (await getTranslations("account.apps"))("metaTitle"),
});

/** The apps the person connected, what each may do, and Disconnect (its access stops at once). */
export default async function ConnectedAppsPage() {
  const caller = await shopperPageCaller("/account/apps");
  const [apps, preferences] = await Promise.all([
    caller.account.connectedApps(),
    caller.account.getPreferences(),
  ]);
  const t = await getTranslations("account.apps");
  // The consent page's words for each scope: one sentence per scope, wherever it is shown.
  const scopeWords = await getTranslations("consent.scope");
  const locale = (await getLocale()) as Locale;
  /** What a scope lets the app do, in the page's language; an unknown scope is shown as its name alone. */
  const scopeText = (scope: string) =>
    isScope(scope) ? scopeWords(scope.replace(":", "_") as "catalog_read") : scope;
  return (
    <>
      <h1 className="page-title">{t("title")}</h1>
      <p className="muted">{t("lede")}</p>
      <section className="panel" aria-labelledby="apps-title">
        <h2 id="apps-title">{t("listTitle")}</h2>
        {apps.length === 0 ? (
          <p className="empty">{t("empty")}</p>
        ) : (
          <ul className="app-list" style={{ listStyle: "none", padding: 0 }}>
            {apps.map((app) => (
              <li className="app-item" key={app.client_id} aria-label={app.name}>
                <span className="avatar" aria-hidden>
                  {app.name.slice(0, 1).toUpperCase()}
                </span>
                <div>
                  <h3>
                    {app.name}{" "}
                    {app.kind === "agent" ? (
                      <span className="badge accent">{t("assistant")}</span>
                    ) : (
                      <span className="badge">{t("partner")}</span>
                    )}
                  </h3>
                  <p className="small muted" style={{ margin: "2px 0 8px" }}>
                    {t("approved", {
                      time: formatTime(app.approved_at, locale, preferences.time_zone),
                    })}
                  </p>
                  <ul className="small" style={{ margin: 0, paddingLeft: 18 }}>
                    {app.scopes.map((scope) => (
                      <li key={scope}>
                        {scopeText(scope)} <span className="chip">{scope}</span>
                      </li>
                    ))}
                  </ul>
                </div>
                <ActionForm action={disconnectAppAction} className="">
                  <input type="hidden" name="client_id" value={app.client_id} />
                  <SubmitButton className="button danger">{t("disconnect")}</SubmitButton>
                  <FormMessage />
                </ActionForm>
              </li>
            ))}
          </ul>
        )}
        {apps.length > 0 ? <ZoneNote timeZone={preferences.time_zone} /> : null}
        <p className="fine-print">
          {t.rich("building", {
            link: (chunks) => <Link href="/developers">{chunks}</Link>,
          })}
        </p>
      </section>
    </>
  );
}
