/**
 * The API's changelog: deprecation notices of single operations (from the lifecycle table, newest
 * first), then every version of the change history (server/edges/rest/changes.ts, which also gives the
 * OpenAPI document its version). Deprecated operations link here (Link rel="sunset").
 */
import { apiVersion, changes, versionAnchor } from "@/server/edges/rest/changes";
import { systemClock } from "@/server/platform/clock";
import { listLifecycles } from "@/server/edges/rest/endpoint-lifecycle";

export const dynamic = "force-dynamic";
export const metadata = { title: "Changelog: Shopping API" };

const day = (date: Date) => date.toISOString().slice(0, 10);
const stateText = {
  deprecated: "Deprecated",
  brownout: "In a brownout now (answers 410 retired)",
  retired: "Retired (answers 410 retired)",
} as const;

export default async function ChangelogPage() {
  const notices = await listLifecycles(systemClock.now());
  return (
    <main className="shell">
      <h1>Changelog</h1>
      <p>
        The API is at version <strong>{apiVersion}</strong>. Within v1 changes are additive: new
        endpoints, optional fields and values in open lists. A deprecated operation keeps working at
        least 6 months after its notice, and carries the Deprecation, Sunset and Link headers until
        its sunset.
      </p>
      {notices.length > 0 && (
        <section aria-labelledby="deprecations">
          <h2 id="deprecations">Deprecations</h2>
          {notices.map(({ lifecycle, state }) => (
            <article key={lifecycle.operationId} id={lifecycle.changelogAnchor}>
              <h3>
                <code>{lifecycle.operationId}</code>
              </h3>
              <p>
                {stateText[state]}. Announced {day(lifecycle.deprecatedAt)}; sunset{" "}
                {lifecycle.sunsetAt.toUTCString()}, from then it answers 410 with error code{" "}
                <code>retired</code>. Use{" "}
                <a href={lifecycle.replacement}>{lifecycle.replacement}</a> instead.
              </p>
              {lifecycle.brownouts.length > 0 && (
                <ul aria-label="Brownouts">
                  {lifecycle.brownouts.map((window) => (
                    <li key={window.start.toISOString()}>
                      Brownout {window.start.toISOString()} to {window.end.toISOString()}
                    </li>
                  ))}
                </ul>
              )}
            </article>
          ))}
        </section>
      )}
      <section aria-labelledby="versions">
        <h2 id="versions">Versions</h2>
        {changes.map((change) => (
          <article key={change.version} id={versionAnchor(change.version)}>
            <h3>
              {change.version} <small>{change.date}</small>
            </h3>
            <p>{change.summary}</p>
          </article>
        ))}
      </section>
    </main>
  );
}
