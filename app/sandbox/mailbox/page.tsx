import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { ZoneNote } from "@/app/_components/zone-note";
import { pageCaller } from "@/app/_trpc/server";
import { currentPersonId } from "@/server/auth";
import { signInPath } from "@/server/auth";
import { formatTime, type Locale } from "@/server/core/locale";

export const dynamic = "force-dynamic";
export const generateMetadata = async () => ({
  title: (await getTranslations("mailbox"))("metaTitle"),
});

/**
 * The signed-in person's own sandbox email, newest first (before confirming the address: only
 * the confirmation email); the HTML version opens on its own page. Others are sent to sign in.
 * Times are in the person's zone, named once under the list.
 */
export default async function MailboxPage() {
  if (!(await currentPersonId())) redirect(signInPath("/sandbox/mailbox"));
  const caller = await pageCaller();
  const [emails, preferences] = await Promise.all([
    caller.mailbox.list({}),
    caller.account.getPreferences(),
  ]);
  const t = await getTranslations("mailbox");
  const locale = (await getLocale()) as Locale;
  return (
    <main className="shell">
      <h1>{t("title")}</h1>
      <p style={{ color: "var(--muted)" }}>{t("lede")}</p>
      {emails.length === 0 ? <p>{t("empty")}</p> : null}
      {emails.map((email) => (
        <article key={email.id} className="card" style={{ marginBottom: 12 }}>
          <h2 style={{ fontSize: "1rem", margin: 0 }}>
            <a href={`/sandbox/mailbox/${email.id}`}>{email.subject}</a>
          </h2>
          <p style={{ margin: "4px 0", color: "var(--muted)" }}>
            {t("to", {
              to: email.to,
              time: email.sentAt
                ? formatTime(email.sentAt, locale, preferences.time_zone)
                : t("notSent"),
            })}
          </p>
          <details>
            <summary>{t("text")}</summary>
            <pre style={{ whiteSpace: "pre-wrap" }}>{email.text}</pre>
          </details>
        </article>
      ))}
      {emails.length > 0 ? <ZoneNote timeZone={preferences.time_zone} /> : null}
    </main>
  );
}
