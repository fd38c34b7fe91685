import Link from "next/link";

export default function HomePage() {
  return (
    <main className="shell">
      <section className="hero">
        <h1>Shopping API</h1>
        <p>
          One API for a marketplace of independent Canadian fashion stores, new and pre-owned.
          Partner apps and AI assistants search every store that can sell right now, price orders
          with live shipping and tax, and hand the shopper a hosted checkout link. With a linked
          account they read sizes and orders, and with the shopper&apos;s permission buy for them
          within their limits.
        </p>
      </section>
      <div className="cards">
        <Link className="card" href="/docs">
          <h2>API reference</h2>
          <p>
            Every endpoint, field and error, generated from the same schemas the service validates
            with.
          </p>
        </Link>
        <a className="card" href="/api/v1/openapi.json">
          <h2>OpenAPI 3.1</h2>
          <p>The machine-readable document, for client generators and assistants.</p>
        </a>
        <Link className="card" href="/changelog">
          <h2>Changelog</h2>
          <p>Every version of the API, and the deprecations announced, with their sunset dates.</p>
        </Link>
        <Link className="card" href="/developers">
          <h2>Developer portal</h2>
          <p>Apply for partner credentials and manage your redirect addresses.</p>
        </Link>
        <Link className="card" href="/sign-in">
          <h2>Shopper sign-in</h2>
          <p>Spending limits, purchases made for you, price watches and connected apps.</p>
        </Link>
      </div>
      <p style={{ marginTop: 32, color: "var(--muted)" }}>
        Get a token: <code>POST /oauth/token</code> with <code>grant_type=client_credentials</code>,
        then call <code>GET /api/v1/products</code>.
      </p>
    </main>
  );
}
