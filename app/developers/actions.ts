"use server";
/** Server actions of the developer portal: each calls one developers procedure. */
import { revalidatePath } from "next/cache";
import { pageCaller } from "@/app/_trpc/server";
import type { ActionState } from "@/app/_trpc/action-state";
import { formValue, runAction } from "@/app/_trpc/run-action";

const lines = (value: string | undefined) =>
  (value ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

export const applyAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      (await pageCaller()).developers.applyForClient({
        name: formValue(data, "name") ?? "",
        contact_email: formValue(data, "contact_email") ?? "",
        redirect_uris: lines(formValue(data, "redirect_uris")),
        wants_linking: data.get("wants_linking") === "on",
      }),
    (application) => {
      revalidatePath("/developers");
      return {
        message:
          application.status === "approved"
            ? `${application.name} is approved. Generate its client secret below.`
            : `Thanks: ${application.name} is waiting for review. We will email ${application.contact_email}.`,
      };
    },
  );

export const rotateSecretAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      (await pageCaller()).developers.rotateSecret({
        application_id: formValue(data, "application_id") ?? "",
      }),
    (result) => {
      revalidatePath("/developers");
      return {
        message: result.replaced_previous
          ? "New secret created. The previous secret and its tokens stopped working."
          : "Client secret created.",
        reveal: { label: `Client secret for ${result.client_id}`, value: result.client_secret },
      };
    },
  );

export const updateRedirectUrisAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      (await pageCaller()).developers.updateRedirectUris({
        application_id: formValue(data, "application_id") ?? "",
        redirect_uris: lines(formValue(data, "redirect_uris")),
      }),
    () => {
      revalidatePath("/developers");
      return { message: "Redirect URIs saved." };
    },
  );

// ---- Webhook endpoints (issue 13) -------------------------------------------------------------

const endpointInput = (data: FormData) => ({
  application_id: formValue(data, "application_id") ?? "",
  endpoint_id: formValue(data, "endpoint_id") ?? "",
});

export const createWebhookAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      (await pageCaller()).webhooks.portal.create({
        application_id: formValue(data, "application_id") ?? "",
        url: formValue(data, "url") ?? "",
        event_types: data.getAll("event_types").map(String) as never,
        description: formValue(data, "description") || undefined,
      }),
    (endpoint) => {
      revalidatePath("/developers");
      return {
        message: `Endpoint ${endpoint.url} registered.`,
        reveal: { label: `Signing secret for ${endpoint.endpoint_id}`, value: endpoint.secret },
      };
    },
  );

export const rotateWebhookSecretAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () => (await pageCaller()).webhooks.portal.rotateSecret(endpointInput(data)),
    (endpoint) => {
      revalidatePath("/developers");
      return {
        message: "New signing secret. The previous one also signs for 24 hours.",
        reveal: { label: `Signing secret for ${endpoint.endpoint_id}`, value: endpoint.secret },
      };
    },
  );

/** The endpoint's one-click operations: test, enable, delete, replay a delivery. */
export const webhookOperationAction = async (_state: ActionState, data: FormData) => {
  const operation = formValue(data, "operation");
  return runAction(
    async () => {
      const portal = (await pageCaller()).webhooks.portal;
      if (operation === "test") return portal.test(endpointInput(data));
      if (operation === "enable") return portal.enable(endpointInput(data));
      if (operation === "delete") return portal.remove(endpointInput(data));
      return portal.replay({
        ...endpointInput(data),
        delivery_id: formValue(data, "delivery_id") ?? "",
      });
    },
    () => {
      revalidatePath("/developers");
      const messages: Record<string, string> = {
        test: "Test event queued.",
        enable: "Endpoint enabled.",
        delete: "Endpoint deleted.",
        replay: "Delivery queued again (same webhook-id).",
      };
      return { message: messages[operation ?? "replay"] ?? "Done." };
    },
  );
};
