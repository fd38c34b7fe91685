/**
 * Migrations are written by Prisma's own schema engine, never by hand (custom SQL such as triggers
 * aside). `prisma/migrations/schema.snapshot.prisma` is the schema the migrations produce; a new
 * migration is the engine's diff from that snapshot to prisma/schema.prisma, and then becomes the
 * snapshot. Prisma 6.19's WebAssembly engine diffs two schema files offline (Prisma 7's CLI would
 * download a native engine, and the engine cannot introspect through @prisma/adapter-pg 7 here:
 * "Column type 'char' could not be deserialized"). schema-drift.integration.test.ts checks that
 * replaying the migrations gives the same tables, columns, indexes and enums as the snapshot.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(__dirname, "..", "..");
export const schemaPath = path.join(root, "prisma", "schema.prisma");
export const snapshotPath = path.join(root, "prisma", "migrations", "schema.snapshot.prisma");

// Prisma 6 wants a url in the datasource block, Prisma 7 refuses one: the engine gets a copy with it.
const engineCopy = (file: string, dir: string, name: string) => {
  const target = path.join(dir, name);
  const source = readFileSync(file, "utf8");
  writeFileSync(
    target,
    source.replace(
      /provider = "postgresql"/,
      'provider = "postgresql"\n  url = env("DATABASE_URL")',
    ),
  );
  return target;
};

/** SQL the engine writes to go from one schema file to another (`from` undefined means empty). */
export const diffSchemas = (from: string | undefined, to: string): string => {
  const dir = mkdtempSync(path.join(tmpdir(), "schema-"));
  const fromArgs = from
    ? ["--from-schema-datamodel", engineCopy(from, dir, "from.prisma")]
    : ["--from-empty"];
  const output = execFileSync(
    process.execPath,
    [
      path.join(root, "node_modules", "prisma6", "build", "index.js"),
      "migrate",
      "diff",
      "--config",
      path.join(root, "prisma", "engine.config.ts"),
      ...fromArgs,
      "--to-schema-datamodel",
      engineCopy(to, dir, "to.prisma"),
      "--script",
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        PRISMA_QUERY_ENGINE_LIBRARY: "/bin/false",
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
      },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return output.replace(/^-- This is an empty migration\.\s*$/m, "").trim();
};

/** SQL the migrations still lack to match schema.prisma; empty when they agree. */
export const pendingSchemaSql = () => {
  let hasSnapshot = true;
  try {
    readFileSync(snapshotPath);
  } catch {
    hasSnapshot = false;
  }
  return diffSchemas(hasSnapshot ? snapshotPath : undefined, schemaPath);
};
