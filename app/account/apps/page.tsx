import Link from "next/link";
import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { shopperPageCaller } from "@/app/_trpc/server";
import { scopeWords, type Scope } from "@/server/auth";
import { disconnectAppAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Connected apps · Shopping API" };

const dateFormat = new Intl.DateTimeFormat("en-CA", {
  dateStyle: "long",
  timeStyle: "short",
  timeZone: "America/Toronto",
});

/** The apps the person connected, what each may do, and Disconnect (its access stops at once). */
export default async function ConnectedAppsPage() {
  const apps = await (await shopperPageCaller("/account/apps")).account.connectedApps();
  return (
    <>
      <h1 className="page-title">Connected apps</h1>
      <p className="muted">
        Apps and assistants you allowed to act for you. Disconnecting one stops its access
        immediately.
      </p>
      <section className="panel" aria-labelledby="apps-title">
        <h2 id="apps-title">Your apps</h2>
        {apps.length === 0 ? (
          <p className="empty">No app is connected. When you approve one, it appears here.</p>
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
                      <span className="badge accent">AI assistant</span>
                    ) : (
                      <span className="badge">Partner app</span>
                    )}
                  </h3>
                  <p className="small muted" style={{ margin: "2px 0 8px" }}>
                    Approved {dateFormat.format(app.approved_at)}
                  </p>
                  <ul className="small" style={{ margin: 0, paddingLeft: 18 }}>
                    {app.scopes.map((scope) => (
                      <li key={scope}>
                        {scopeWords[scope as Scope] ?? scope} <span className="chip">{scope}</span>
                      </li>
                    ))}
                  </ul>
                </div>
                <ActionForm action={disconnectAppAction} className="">
                  <input type="hidden" name="client_id" value={app.client_id} />
                  <SubmitButton className="button danger">Disconnect</SubmitButton>
                  <FormMessage />
                </ActionForm>
              </li>
            ))}
          </ul>
        )}
        <p className="fine-print">
          Building an app? See the <Link href="/developers">developer portal</Link>.
        </p>
      </section>
    </>
  );
}
