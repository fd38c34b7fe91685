/** `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql from Prisma's diff. */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pendingSchemaSql, schemaPath, snapshotPath } from "./schema-diff";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(2);
}
const sql = pendingSchemaSql();
if (!sql) {
  console.log("schema.prisma and the migrations agree: nothing to write");
} else {
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join(path.dirname(snapshotPath), `${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "migration.sql"), `${sql}\n`);
  copyFileSync(schemaPath, snapshotPath);
  console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
}
