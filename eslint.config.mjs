// Lint rules that keep the layout honest (STYLE.md habit 8): Prisma and the database stay inside the
// server (capabilities, edges, platform, testing), never in pages, domain
// logic, emails or e2e specs.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const prismaImports = {
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
    files: ["app/**", "server/core/**", "emails/**", "e2e/**/*.spec.ts"],
    rules: { "no-restricted-imports": ["error", prismaImports] },
  },
);
