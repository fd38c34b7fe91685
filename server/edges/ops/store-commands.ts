/**
 * The operator's payout commands (docs/adr/0106):
 * - `store:connect SLUG --stripe-account acct_...` connects a store to its connected account, once
 *   the processor confirms the account exists and can receive transfers (`--disconnect` removes
 *   it: the store stops selling, through the one store-can-sell rule);
 * - `store:fee SLUG --percent 12.5` sets the platform's fee on its items (0 to 100, two decimals);
 * - `store:statement SLUG --from 2026-11-01 --to 2026-12-01 [--csv]` prints what the store is owed
 *   from the payments captured in [from, to), each order's row and the totals.
 */
import { z } from "zod";
import { db } from "../../platform/db";
import { paymentProvider } from "../../payments";
import {
  findStorePayoutSettings,
  setStorePayoutAccount,
  setStorePlatformFee,
} from "../../catalogue";
import { percentToBps, statementCells, storeStatement, toCsv } from "../../payouts";
import { fail } from "./commands";

const settingsOf = (store: {
  slug: string;
  payoutAccount: string | null;
  platformFeeBps: number;
}) => ({
  slug: store.slug,
  payout_account: store.payoutAccount,
  platform_fee_percent: (store.platformFeeBps / 100).toFixed(2),
});

const ZAccount = z
  .string({ error: "--stripe-account is required (or --disconnect)" })
  .trim()
  .regex(
    /^acct_[A-Za-z0-9_]{1,100}$/,
    "--stripe-account must be a connected account id (acct_...)",
  );

export const connectStore = async (
  slug: string | undefined,
  input: { stripeAccount?: string; disconnect?: boolean },
) => {
  if (!slug) fail("usage: store:connect SLUG --stripe-account acct_... | --disconnect");
  if (input.disconnect) {
    const store = await setStorePayoutAccount(db(), slug!, null);
    return settingsOf(store ?? fail(`no store ${slug}`));
  }
  const parsed = ZAccount.safeParse(input.stripeAccount);
  if (!parsed.success) fail(parsed.error.issues[0].message);
  const accountId = parsed.data!;
  if (!(await findStorePayoutSettings(db(), slug!))) fail(`no store ${slug}`);
  const account = await paymentProvider().retrieveAccount({ accountId });
  if (!account) fail(`the processor has no connected account ${accountId}`);
  if (!account!.canReceiveTransfers)
    fail(`${accountId} cannot receive transfers yet (its onboarding is not finished)`);
  const store = await setStorePayoutAccount(db(), slug!, accountId);
  return settingsOf(store ?? fail(`no store ${slug}`));
};

export const setStoreFee = async (slug: string | undefined, input: { percent?: string }) => {
  if (!slug) fail("usage: store:fee SLUG --percent 12.5");
  const bps = percentToBps(input.percent ?? "");
  if (bps === null) fail("--percent must be a number from 0 to 100 with at most two decimals");
  const store = await setStorePlatformFee(db(), slug!, bps!);
  return settingsOf(store ?? fail(`no store ${slug}`));
};

const ZDay = (flag: string) =>
  z
    .string({ error: `${flag} is required (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${flag} must be a date (YYYY-MM-DD)`)
    .transform((day) => new Date(`${day}T00:00:00.000Z`))
    .refine((date) => !Number.isNaN(date.getTime()), `${flag} must be a real date`);

/** The statement as cells (the CLI prints them as a table, or `--json`), or as CSV with `--csv`. */
export const printStatement = async (
  slug: string | undefined,
  input: { from?: string; to?: string; csv?: boolean },
) => {
  if (!slug) fail("usage: store:statement SLUG --from YYYY-MM-DD --to YYYY-MM-DD [--csv]");
  const period = z
    .object({ from: ZDay("--from"), to: ZDay("--to") })
    .refine((value) => value.from < value.to, "--to must be after --from")
    .safeParse(input);
  if (!period.success) fail(period.error.issues[0].message);
  const store = (await findStorePayoutSettings(db(), slug!)) ?? fail(`no store ${slug}`);
  const statement = await storeStatement(db(), { storeId: store.id, ...period.data! });
  const cells = statementCells(statement);
  if (input.csv) return { csv: toCsv(cells) };
  return {
    store: store.slug,
    from: period.data!.from.toISOString().slice(0, 10),
    to: period.data!.to.toISOString().slice(0, 10),
    platform_fee_percent: (store.platformFeeBps / 100).toFixed(2),
    lines: cells,
  };
};

/** Cells as a plain-text table, columns padded, amounts right-aligned. */
export const statementTable = (cells: string[][]) => {
  const widths = cells[0].map((_, column) => Math.max(...cells.map((line) => line[column].length)));
  const isAmount = (column: number) => column >= 3 && column <= 7;
  return cells
    .map((line) =>
      line
        .map((cell, column) =>
          isAmount(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
        )
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
};
