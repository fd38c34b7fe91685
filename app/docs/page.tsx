/** The readable API reference: Scalar's standalone renderer, served from our own origin (offline). */
export const metadata = { title: "Shopping API reference" };

/**
 * Scalar's features that reach its hosted services are off: the Ask AI agent, the developer tools
 * and toolbar (Deploy, Share), the hosted API client button, telemetry and its CDN fonts. Requests
 * from the built-in test panel go straight to this origin.
 */
const scalarConfiguration = {
  hideClientButton: true,
  showDeveloperTools: "never",
  showToolbar: "never",
  agent: { disabled: true },
  telemetry: false,
  withDefaultFonts: false,
} as const;

export default function DocsPage() {
  return (
    <>
      <script
        id="api-reference"
        data-url="/api/v1/openapi.json"
        data-configuration={JSON.stringify(scalarConfiguration)}
      />
      <script src="/docs/scalar.js" async />
    </>
  );
}
