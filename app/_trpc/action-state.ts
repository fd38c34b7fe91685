/** What every server action of the pages answers: a status, a message, per-field errors, a one-time value. */
export type ActionState = {
  status: "idle" | "ok" | "error";
  message?: string;
  fields?: Record<string, string>;
  /** A value shown exactly once (a new client secret). */
  reveal?: { label: string; value: string };
  /** Changes on every answer, so a form can reset itself after success. */
  at?: number;
};
