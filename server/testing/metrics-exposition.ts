/**
 * Reading a Prometheus exposition (GET /metrics) in tests: the sum of a series' samples whose
 * labels include every pair of `labels` (all of its label sets when none are given).
 */
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
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
