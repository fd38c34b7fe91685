import Link from "next/link";
import { ActionForm, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { resendConfirmationAction } from "@/app/account/actions";

/** Shown instead of the consent form until the person confirms their email address. */
export function UnverifiedNotice({ clientName, email }: { clientName: string; email: string }) {
  return (
    <div>
      <h1 id="consent-title" style={{ fontSize: "1.3rem" }}>
        Confirm your email to connect {clientName}
      </h1>
      <p className="lede">
        Before you approve an app, confirm <strong>{email}</strong> with the link we emailed you,
        then come back to this page.
      </p>
      <ActionForm action={resendConfirmationAction}>
        <FormMessage okTone="info" />
        <div className="button-row">
          <SubmitButton>Send a new link</SubmitButton>
          <Link className="button secondary" href="/account">
            Go to my account
          </Link>
        </div>
      </ActionForm>
    </div>
  );
}
