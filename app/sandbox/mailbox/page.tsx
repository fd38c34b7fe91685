import { redirect } from "next/navigation";
import { pageCaller } from "@/app/_trpc/server";
import { currentPersonId } from "@/server/auth";
import { signInPath } from "@/server/auth";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sandbox mailbox" };

/**
 * The signed-in person's own sandbox email, newest first (before confirming the address: only
 * the confirmation email); the HTML version opens on its own page. Others are sent to sign in.
 */
export default async function MailboxPage() {
  if (!(await currentPersonId())) redirect(signInPath("/sandbox/mailbox"));
  const emails = await (await pageCaller()).mailbox.list({});
  return (
    <main className="shell">
      <h1>Sandbox mailbox</h1>
      <p style={{ color: "var(--muted)" }}>
        Emails the sandbox delivered to your address since you created your account (until you
        confirm it, only the confirmation email). Nothing here leaves this machine.
      </p>
      {emails.length === 0 ? <p>No email yet.</p> : null}
      {emails.map((email) => (
        <article key={email.id} className="card" style={{ marginBottom: 12 }}>
          <h2 style={{ fontSize: "1rem", margin: 0 }}>
            <a href={`/sandbox/mailbox/${email.id}`}>{email.subject}</a>
          </h2>
          <p style={{ margin: "4px 0", color: "var(--muted)" }}>
            To {email.to} · {email.sentAt?.toISOString()}
          </p>
          <details>
            <summary>Text</summary>
            <pre style={{ whiteSpace: "pre-wrap" }}>{email.text}</pre>
          </details>
        </article>
      ))}
    </main>
  );
}
