/** The readable API reference: Scalar's standalone renderer, served from our own origin (offline). */
export const metadata = { title: "Shopping API reference" };

export default function DocsPage() {
  return (
    <>
      <script id="api-reference" data-url="/api/v1/openapi.json" />
      <script src="/docs/scalar.js" async />
    </>
  );
}
