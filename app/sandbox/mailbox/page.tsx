import { pageCaller } from "@/app/_trpc/server";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sandbox mailbox" };

/** Every email the sandbox sent, newest first; the HTML version opens on its own page. */
export default async function MailboxPage({ searchParams }: { searchParams: Promise<{ to?: string }> }) {
  const { to } = await searchParams;
  const emails = await (await pageCaller()).mailbox.list({ to });
  return (
    <main className="shell">
      <h1>Sandbox mailbox</h1>
      <p style={{ color: "var(--muted)" }}>Emails the sandbox delivered{to ? ` to ${to}` : ""}. Nothing here leaves this machine.</p>
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
