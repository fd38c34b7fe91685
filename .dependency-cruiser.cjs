/**
 * The layout's rules (docs/adr, "Capabilities and layers"), checked by `npm run lint` and CI:
 * edges -> capabilities (procedures -> use cases -> store) -> platform -> core. A capability uses a
 * lower one only through that one's index.ts, and never a higher one. Type-only imports count.
 * Tests and server/testing/ are left out: a test may reach into the code it tests.
 */
// Lowest first: a capability may use the ones before it, never one after it.
const capabilities = [
  "payments",
  "auth",
  "accounts",
  "catalogue",
  "partners",
  "checkout",
  "purchases",
  "payouts",
  "refunds",
  "disputes",
  "reconciliation",
  "orders",
  "price-watches",
  "price-alerts",
  "search-watches",
  "price-changes",
  "oauth",
  "dashboard",
  "sandbox",
];
const tests = "(\\.test\\.tsx?$|^server/testing/)";
const capabilityPath = (name) => `^server/${name}/`;

const upward = capabilities.map((name, rank) => ({
  name: `${name}-looks-down`,
  comment: `${name} may use only capabilities below it (${capabilities.slice(0, rank).join(", ") || "none"}), platform and core.`,
  severity: "error",
  from: { path: capabilityPath(name), pathNot: tests },
  to: {
    path: `^server/(${[...capabilities.slice(rank + 1), "edges"].join("|")})/`,
  },
}));

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "No import cycle between modules, type-only imports included.",
      severity: "error",
      from: { pathNot: tests },
      to: { circular: true, viaOnly: { pathNot: tests } },
    },
    {
      name: "no-folder-cycles",
      comment: "No cycle between folders either.",
      severity: "error",
      scope: "folder",
      from: { path: "^(server|app|emails)/", pathNot: tests },
      to: { circular: true },
    },
    {
      name: "core-is-pure",
      comment: "core/ holds pure rules: it imports only core/ (and npm packages such as zod).",
      severity: "error",
      from: { path: "^server/core/", pathNot: tests },
      to: { path: "^(server/(?!core/)|app/|emails/|prisma/)" },
    },
    {
      name: "platform-looks-down",
      comment: "platform/ is shared I/O: it imports only platform/, core/ and the email templates.",
      severity: "error",
      from: { path: "^server/platform/", pathNot: tests },
      to: { path: "^(server/(?!platform/|core/|generated/)|app/)" },
    },
    ...upward,
    {
      name: "through-the-index",
      comment:
        "Another capability is used only through its index.ts: what it offers, not how it is built.",
      severity: "error",
      from: { path: "^server/([^/]+)/", pathNot: tests },
      to: {
        path: `^server/(${capabilities.join("|")})/`,
        pathNot: ["^server/$1/", `^server/(${capabilities.join("|")})/index\\.ts$`],
      },
    },
    {
      name: "pages-through-the-index",
      comment: "Pages, too, use a capability only through its index.ts.",
      severity: "error",
      from: { path: "^app/" },
      to: {
        path: `^server/(${capabilities.join("|")})/`,
        pathNot: `^server/(${capabilities.join("|")})/index\\.ts$`,
      },
    },
    {
      name: "pages-call-procedures",
      comment: "Pages reach the server through the tRPC caller, the edges, core and platform/env.",
      severity: "error",
      from: { path: "^app/" },
      to: { path: "^server/(platform/(db|sql)|generated/)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Tests may reach into what they test: left out of the graph, so they add no edge.
    exclude: {
      path: ["(^|/)(node_modules|generated|\\.next)/", "\\.test\\.tsx?$", "^server/testing/"],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mts", ".mjs", ".js", ".d.ts", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
