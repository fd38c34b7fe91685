// Configuration for Prisma 6.19's CLI (package alias `prisma6`), used only for `migrate diff`:
// its WebAssembly schema engine runs offline, unlike Prisma 7's native one (see docs/adr/0012-migrations.md).
import { PrismaPg } from "@prisma/adapter-pg";

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export default {
  experimental: { adapter: true },
  engine: "js",
  schema: "schema.prisma",
  adapter: async () => new PrismaPg({ connectionString: url }),
};
