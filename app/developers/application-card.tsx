/** One application on the developer portal: its status, client ID, scopes, redirect URIs and secret. */
import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { rotateSecretAction, updateRedirectUrisAction } from "./actions";
import { WebhooksPanel } from "./webhooks-panel";

type Application = {
  application_id: string;
  name: string;
  environment: string;
  status: string;
  wants_linking: boolean;
  redirect_uris: string[];
  client: {
    client_id: string;
    scopes: string[];
    has_secret: boolean;
    linking_enabled: boolean;
  } | null;
};

const statusBadge: Record<string, string> = {
  approved: "badge ok",
  pending: "badge warn",
  rejected: "badge",
  revoked: "badge",
};

export function ApplicationCard({ application }: { application: Application }) {
  const client = application.status === "approved" ? application.client : null;
  return (
    <section className="panel" aria-label={application.name}>
      <div className="panel-head">
        <div>
          <h2>{application.name}</h2>
          <p className="small muted" style={{ margin: 0 }}>
            <span className={statusBadge[application.status] ?? "badge"}>{application.status}</span>{" "}
            <span className="badge">{application.environment}</span>
          </p>
        </div>
      </div>
      {application.status === "pending" ? (
        <p className="muted">
          Waiting for review. You will get your credentials here once it is approved.
        </p>
      ) : null}
      {client ? (
        <>
          <dl className="facts">
            <dt>Client ID</dt>
            <dd>
              <code data-testid="client-id">{client.client_id}</code>
            </dd>
            <dt>Scopes</dt>
            <dd>
              <div className="chips" style={{ marginTop: 0 }}>
                {client.scopes.map((scope) => (
                  <span className="chip" key={scope}>
                    {scope}
                  </span>
                ))}
              </div>
            </dd>
            <dt>Account linking</dt>
            <dd>{client.linking_enabled ? "On" : "Off"}</dd>
          </dl>
          <hr className="divider" />
          <ActionForm action={rotateSecretAction}>
            <input type="hidden" name="application_id" value={application.application_id} />
            <div>
              <span className="label">Client secret</span>
              <p className="hint" style={{ margin: "4px 0 0" }}>
                {client.has_secret
                  ? "A secret is set. Rotating makes a new one and stops the old one (and its tokens) at once."
                  : "No secret yet. It is shown once when you create it; we keep only a hash."}
              </p>
            </div>
            <FormMessage />
            <div>
              <SubmitButton className={client.has_secret ? "button danger" : "button primary"}>
                {client.has_secret ? "Rotate secret" : "Create client secret"}
              </SubmitButton>
            </div>
          </ActionForm>
          <hr className="divider" />
          <ActionForm action={updateRedirectUrisAction}>
            <input type="hidden" name="application_id" value={application.application_id} />
            <FormMessage />
            <Field
              name="redirect_uris"
              id={`field-redirect_uris-${application.application_id}`}
              label="Redirect URIs"
              hint="One per line. Authorization requests must use one of them exactly."
            >
              <textarea
                id={`field-redirect_uris-${application.application_id}`}
                name="redirect_uris"
                className="textarea"
                defaultValue={application.redirect_uris.join("\n")}
              />
            </Field>
            <div>
              <SubmitButton className="button secondary">Save redirect URIs</SubmitButton>
            </div>
          </ActionForm>
          <hr className="divider" />
          <WebhooksPanel applicationId={application.application_id} />
        </>
      ) : null}
    </section>
  );
}
