"use server";
/** Server actions of the developer portal: each calls one developers procedure. */
import { revalidatePath } from "next/cache";
import { pageCaller } from "@/app/_trpc/server";
import type { ActionState } from "@/app/_trpc/action-state";
import { formValue, runAction } from "@/app/_trpc/run-action";

const lines = (value: string | undefined) => (value ?? "").split(/\r?\n/).map((line) => line.trim()).filter(Boolean);

export const applyAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      (await pageCaller()).developers.applyForClient({
        name: formValue(data, "name") ?? "", contact_email: formValue(data, "contact_email") ?? "",
        redirect_uris: lines(formValue(data, "redirect_uris")), wants_linking: data.get("wants_linking") === "on",
      }),
    (application) => {
      revalidatePath("/developers");
      return { message: application.status === "approved" ? `${application.name} is approved. Generate its client secret below.` : `Thanks: ${application.name} is waiting for review. We will email ${application.contact_email}.` };
    },
  );

export const rotateSecretAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () => (await pageCaller()).developers.rotateSecret({ application_id: formValue(data, "application_id") ?? "" }),
    (result) => {
      revalidatePath("/developers");
      return {
        message: result.replaced_previous ? "New secret created. The previous secret and its tokens stopped working." : "Client secret created.",
        reveal: { label: `Client secret for ${result.client_id}`, value: result.client_secret },
      };
    },
  );

export const updateRedirectUrisAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () => (await pageCaller()).developers.updateRedirectUris({ application_id: formValue(data, "application_id") ?? "", redirect_uris: lines(formValue(data, "redirect_uris")) }),
    () => {
      revalidatePath("/developers");
      return { message: "Redirect URIs saved." };
    },
  );
