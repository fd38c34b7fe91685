// Prisma 7 configuration, used for `prisma generate` (the client runs on @prisma/adapter-pg).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
