/** The webhook endpoints of one client on the developer portal, with each endpoint's latest deliveries and replay. */
import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { pageCaller } from "@/app/_trpc/server";
import { webhookEventTypes } from "@/server/partners";
import { createWebhookAction, rotateWebhookSecretAction, webhookOperationAction } from "./actions";

const deliveryBadge: Record<string, string> = {
  delivered: "badge ok",
  pending: "badge warn",
  failed: "badge",
  dropped: "badge",
};

const time = (iso: string | null) =>
  iso ? new Date(iso).toISOString().replace("T", " ").slice(0, 19) + " UTC" : "–";

function Operation({
  applicationId,
  endpointId,
  operation,
  label,
  deliveryId,
  className = "button secondary",
}: {
  applicationId: string;
  endpointId: string;
  operation: string;
  label: string;
  deliveryId?: string;
  className?: string;
}) {
  return (
    <ActionForm action={webhookOperationAction} className="inline-form">
      <input type="hidden" name="application_id" value={applicationId} />
      <input type="hidden" name="endpoint_id" value={endpointId} />
      <input type="hidden" name="operation" value={operation} />
      {deliveryId ? <input type="hidden" name="delivery_id" value={deliveryId} /> : null}
      <SubmitButton className={className}>{label}</SubmitButton>
      <FormMessage />
    </ActionForm>
  );
}

export async function WebhooksPanel({ applicationId }: { applicationId: string }) {
  const endpoints = await (
    await pageCaller()
  ).webhooks.portal.overview({ application_id: applicationId });
  return (
    <div aria-label="Webhooks">
      <span className="label">Webhooks</span>
      <p className="hint" style={{ margin: "4px 0 8px" }}>
        Signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature). Retried for
        3 days; an endpoint failing for 5 days is disabled and you are emailed.
      </p>
      {endpoints.map((endpoint) => (
        <div key={endpoint.endpoint_id} className="panel" data-testid="webhook-endpoint">
          <p style={{ margin: 0 }}>
            <code>{endpoint.url}</code>{" "}
            <span className={endpoint.status === "enabled" ? "badge ok" : "badge warn"}>
              {endpoint.status}
            </span>
          </p>
          <p className="small muted">{endpoint.event_types.join(", ")}</p>
          <div className="button-row">
            <Operation
              applicationId={applicationId}
              endpointId={endpoint.endpoint_id}
              operation="test"
              label="Send test event"
            />
            {endpoint.status === "disabled" ? (
              <Operation
                applicationId={applicationId}
                endpointId={endpoint.endpoint_id}
                operation="enable"
                label="Enable"
              />
            ) : null}
            <ActionForm action={rotateWebhookSecretAction} className="inline-form">
              <input type="hidden" name="application_id" value={applicationId} />
              <input type="hidden" name="endpoint_id" value={endpoint.endpoint_id} />
              <SubmitButton className="button secondary">Rotate signing secret</SubmitButton>
              <FormMessage />
            </ActionForm>
            <Operation
              applicationId={applicationId}
              endpointId={endpoint.endpoint_id}
              operation="delete"
              label="Delete"
              className="button danger"
            />
          </div>
          <table className="table" aria-label={`Deliveries to ${endpoint.url}`}>
            <thead>
              <tr>
                <th>Event</th>
                <th>Status</th>
                <th>Response</th>
                <th>Attempts</th>
                <th>Time</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {endpoint.deliveries.map((delivery) => (
                <tr key={delivery.delivery_id} data-testid="webhook-delivery">
                  <td>
                    {delivery.type} <code className="small">{delivery.event_id}</code>
                  </td>
                  <td>
                    <span className={deliveryBadge[delivery.status] ?? "badge"}>
                      {delivery.status}
                    </span>
                  </td>
                  <td>{delivery.response_status ?? delivery.last_error ?? "–"}</td>
                  <td>{delivery.attempts}</td>
                  <td>{time(delivery.last_attempt_at ?? delivery.created_at)}</td>
                  <td>
                    {delivery.status === "pending" ? null : (
                      <Operation
                        applicationId={applicationId}
                        endpointId={endpoint.endpoint_id}
                        operation="replay"
                        deliveryId={delivery.delivery_id}
                        label="Replay"
                      />
                    )}
                  </td>
                </tr>
              ))}
              {endpoint.deliveries.length === 0 ? (
                <tr>
                  <td colSpan={6} className="muted">
                    No deliveries yet.
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      ))}
      <ActionForm action={createWebhookAction} resetOnSuccess>
        <input type="hidden" name="application_id" value={applicationId} />
        <FormMessage />
        <Field
          name="url"
          id={`field-webhook-url-${applicationId}`}
          label="Endpoint URL"
          placeholder="https://app.example.com/webhooks"
          hint="https (in the sandbox also http://localhost or http://127.0.0.1)."
        />
        <fieldset className="chips" aria-label="Event types">
          {webhookEventTypes.map((type) => (
            <label key={type} className="chip">
              <input type="checkbox" name="event_types" value={type} /> {type}
            </label>
          ))}
        </fieldset>
        <div>
          <SubmitButton className="button secondary">Add endpoint</SubmitButton>
        </div>
      </ActionForm>
    </div>
  );
}
