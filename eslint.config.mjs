// Lint rules that keep the layout honest (STYLE.md habit 8): Prisma and the database stay inside the
// server (capabilities, edges, platform, testing), never in pages, domain
// logic, emails or e2e specs.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/** `pg` is the driver under the stores and platform/, never imported elsewhere (ADR 0103). */
const pgImport = {
  name: "pg",
  message: "Raw `pg` is used only in a capability's store and in server/platform (ADR 0103).",
};

const prismaImports = {
  paths: [pgImport],
  patterns: [
    {
      group: ["**/generated/prisma/**", "@prisma/*"],
      message: "Prisma stays in the server shell: call a procedure or a factory.",
    },
    {
      group: [
        "**/server/platform/db",
        "@/server/platform/db",
        "**/server/platform/sql",
        "@/server/platform/sql",
      ],
      message: "The database stays in the server shell: call a procedure.",
    },
  ],
};

/**
 * One data-access boundary (docs/adr/0103-one-data-access-boundary.md): a capability's queries live
 * in its store (`store.ts`, or a `store/` folder), the only place its tables are read or written.
 * Elsewhere, no Prisma query API on a client (`db`, `tx`, `ctx.db`, `db()`, `database`, `prisma`),
 * no `$queryRaw`/`$executeRaw` (Prisma's or the `Sql` of server/platform/sql.ts), no
 * `$transaction` (a use case starts one with `inTransaction` or `sqlTransaction`), no raw pool.
 */
const queryMethods =
  "findMany|findUnique|findUniqueOrThrow|findFirst|findFirstOrThrow|create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany|count|aggregate|groupBy";
const clientNames = "db|tx|database|prisma";
const outsideStore =
  "Queries live in the capability's store (store.ts or store/): call a named store function, passing the Db, Tx or Sql you were given (ADR 0103).";
const modelQuery = (client) => ({
  selector: `CallExpression[callee.property.name=/^(${queryMethods})$/]${client}`,
  message: outsideStore,
});
const storeBoundary = [
  modelQuery(`[callee.object.object.name=/^(${clientNames})$/]`), // db.item.findMany(…)
  modelQuery(`[callee.object.object.property.name=/^(${clientNames})$/]`), // ctx.db.item.findMany(…)
  modelQuery(`[callee.object.object.callee.name=/^(${clientNames})$/]`), // db().item.findMany(…)
  {
    // sql.$queryRaw`…`, tx.$executeRaw`…`, db.$queryRawUnsafe(…), db.$transaction(…)
    selector:
      "MemberExpression[property.name=/^[$](queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|transaction)$/]",
    message: outsideStore,
  },
  { selector: "CallExpression[callee.name='rawPool']", message: outsideStore },
];

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".data/**",
      "server/generated/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    files: ["**/*.{ts,tsx,mts,cts,js,mjs,cjs}"],
    ignores: [
      "**/store.ts",
      "**/store/**",
      "server/platform/**",
      "server/testing/**",
      "**/*.test.{ts,tsx}",
      "prisma/**",
      "bench/**",
      // The search engine is a module of its own inside catalogue; these files are its store: the
      // PostgreSQL reference, the live-watcher reads, the index's loader, sync (LISTEN) and counts.
      "server/catalogue/search/pg-search.ts",
      "server/catalogue/search/watchers.ts",
      "server/catalogue/search/memory/catalog-loader.ts",
      "server/catalogue/search/memory/catalog-sync.ts",
      "server/catalogue/search/memory/watcher-counts.ts",
      // The operator's database administration: creating databases and running migrations.
      "server/edges/ops/cli.ts",
      "server/edges/ops/migrate.ts",
      "server/edges/ops/prepare-database.ts",
      // The REST lifecycle's own tables (deprecations, the call log), queried beside their rules.
      "server/edges/rest/call-log.ts",
      "server/edges/rest/endpoint-lifecycle.ts",
      "server/edges/rest/lifecycle-store.ts",
    ],
    rules: {
      "no-restricted-syntax": ["error", ...storeBoundary],
      "no-restricted-imports": ["error", { paths: [pgImport] }],
    },
  },
  {
    files: ["app/**", "server/core/**", "emails/**", "e2e/**/*.spec.ts"],
    rules: { "no-restricted-imports": ["error", prismaImports] },
  },
);
