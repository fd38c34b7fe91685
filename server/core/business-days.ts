/** Calendar arithmetic on local dates (YYYY-MM-DD) for delivery estimates: weekends are not business days. */

const toUtc = (date: string) => {
  const [year, month, day] = date.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day));
};
const toDate = (instant: Date) => instant.toISOString().slice(0, 10);

/** The date `days` business days after `date` (Saturday and Sunday skipped; statutory holidays are not). */
export const addBusinessDays = (date: string, days: number): string => {
  const current = toUtc(date);
  let remaining = days;
  while (remaining > 0) {
    current.setUTCDate(current.getUTCDate() + 1);
    const weekday = current.getUTCDay();
    if (weekday !== 0 && weekday !== 6) remaining--;
  }
  return toDate(current);
};
