/**
 * A store's statement (`ops store:statement SLUG --from --to [--csv]`): every ledger row captured in
 * the period, with the totals, as a table for the operator or as CSV for the store's books.
 */
import { formatCents } from "../core/money";
import type { Db } from "../platform/db";
import { readStatementRows, type StatementRow } from "./store";

const amountColumns = ["itemsCents", "shippingCents", "taxCents", "feeCents", "netCents"] as const;
const headers = [
  "captured_at",
  "order",
  "kind",
  "items",
  "shipping",
  "tax",
  "fee",
  "net",
  "transfer",
];

export const storeStatement = async (
  db: Db,
  options: { storeId: number; from: Date; to: Date },
) => {
  const rows = await readStatementRows(db, options);
  const totals = Object.fromEntries(
    amountColumns.map((column) => [column, rows.reduce((sum, row) => sum + row[column], 0)]),
  ) as Record<(typeof amountColumns)[number], number>;
  return { rows, totals };
};

const transferOf = (row: StatementRow) =>
  row.transferStatus === "transferred"
    ? (row.transferId ?? "nothing to send")
    : `pending${row.transferReason ? ` (${row.transferReason})` : ""}`;

/** The statement's lines as cells: amounts in dollars with two decimals, never floats. */
export const statementCells = ({ rows, totals }: Awaited<ReturnType<typeof storeStatement>>) => [
  headers,
  ...rows.map((row) => [
    row.capturedAt.toISOString(),
    row.order.number,
    row.kind,
    ...amountColumns.map((column) => formatCents(row[column])),
    transferOf(row),
  ]),
  ["total", "", "", ...amountColumns.map((column) => formatCents(totals[column])), ""],
];

/** RFC 4180 CSV: a cell with a comma, quote or line break is quoted, quotes doubled. */
export const toCsv = (cells: string[][]) =>
  cells
    .map((line) =>
      line
        .map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell))
        .join(","),
    )
    .join("\r\n") + "\r\n";
