/** A saved or refused notice under a dashboard form: a status line, or an alert for a refusal. */
export type Notice = { tone: "ok" | "error"; text: string } | null;

export function NoticeLine({ notice }: { notice: Notice }) {
  if (!notice) return null;
  return (
    <div role={notice.tone === "error" ? "alert" : "status"} className={`notice ${notice.tone}`}>
      <p>{notice.text}</p>
    </div>
  );
}
