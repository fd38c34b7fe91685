/**
 * Reading a Prometheus exposition (GET /metrics, or the registry's text) in tests.
 */

/** A sample line's value: what follows its last space. */
const valueOf = (line: string) => Number(line.slice(line.lastIndexOf(" ") + 1));

/** A sample's value (0 when absent), by its exact label set as written: `{outcome="held"}`, or none. */
export const sampleValue = (exposition: string, name: string, labels = "") => {
  const line = exposition
    .split("\n")
    .find((candidate) => candidate.startsWith(`${name}${labels} `));
  return line ? valueOf(line) : 0;
};

/** The sum of a series' samples whose labels include every pair of `labels` (all of its label sets when none are given). */
export const seriesSum = (exposition: string, name: string, labels: Record<string, string> = {}) =>
  exposition
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) =>
      Object.entries(labels).every(
        ([label, value]) =>
          line.includes(`{${label}="${value}"`) || line.includes(`,${label}="${value}"`),
      ),
    )
    .reduce((sum, line) => sum + valueOf(line), 0);
