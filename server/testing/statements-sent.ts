/**
 * The statements a piece of work sends, in order, recorded at `pg`'s `Client.query`, which every
 * statement of the raw pool and of Prisma's adapter goes through: their text and, for a prepared
 * one, its name. For tests that hold a path to a statement budget or to how a statement is sent.
 */
import pg from "pg";
import { vi } from "vitest";

export type SentStatement = { text: string; name?: string };

export const statementsSent = async (work: () => Promise<unknown>) => {
  const sent: SentStatement[] = [];
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const config = args[0] as string | { text?: string; name?: string };
    sent.push(
      typeof config === "string"
        ? { text: config }
        : { text: config.text ?? "", name: config.name },
    );
    return query.apply(this, args);
  } as unknown as typeof pg.Client.prototype.query);
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return sent;
};
