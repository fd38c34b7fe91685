/** The one action under an entry of a dashboard list (Cancel): disabled while an action runs and until the page is hydrated (useAction). */
export function EntryAction({
  label,
  busy,
  onClick,
}: {
  label: string;
  busy: boolean;
  onClick: () => void;
}) {
  return (
    <div className="button-row" style={{ marginTop: 12 }}>
      <button type="button" className="button secondary" disabled={busy} onClick={onClick}>
        {label}
      </button>
    </div>
  );
}
