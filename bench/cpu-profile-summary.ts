/**
 * `npx tsx bench/cpu-profile-summary.ts <file.cpuprofile> [--from S --to S] [--top N]`: what a
 * thread's CPU profile says, for profiles taken with `NODE_FLAGS="--cpu-prof --cpu-prof-dir=DIR"
 * npm start` (every thread writes its own file when the service stops cleanly; the sweep's is
 * usually the largest). Without a window it prints how busy the thread was in each 10 s, to find
 * the stretch to look at (a sale, a load phase); with `--from`/`--to` (seconds from the profile's
 * start) it prints that stretch's top functions by self time and by inclusive time. A sample is
 * wall time: time the thread spent waiting for the CPU inside a call counts to that call.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { from: { type: "string" }, to: { type: "string" }, top: { type: "string" } },
});
if (positionals.length !== 1) {
  console.error(
    "usage: npx tsx bench/cpu-profile-summary.ts <file.cpuprofile> [--from S --to S] [--top N]",
  );
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], "utf8")) as CpuProfile;
const top = Number(values.top ?? 40);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parentOf.set(child, node.id);
const label = ({ callFrame }: ProfileNode) =>
  `${callFrame.functionName || "(anonymous)"} ${callFrame.url
    .replace(/^.*node_modules\//, "")
    .replace(/^.*?\/(server|bench|emails|app)\//, "$1/")}:${callFrame.lineNumber + 1}`;
const isIdle = (node: ProfileNode) => node.callFrame.functionName === "(idle)";

// Each sample's time from the profile's start, and the time since the sample before (what it stands for).
const samples: { at: number; seconds: number; node: ProfileNode }[] = [];
let clock = 0;
profile.samples.forEach((id, i) => {
  clock += profile.timeDeltas[i];
  samples.push({ at: clock / 1e6, seconds: profile.timeDeltas[i] / 1e6, node: byId.get(id)! });
});

if (values.from === undefined) {
  const buckets = new Map<number, { busy: number; all: number }>();
  for (const sample of samples) {
    const bucket = Math.floor(sample.at / 10) * 10;
    const figures = buckets.get(bucket) ?? { busy: 0, all: 0 };
    figures.all += sample.seconds;
    if (!isIdle(sample.node)) figures.busy += sample.seconds;
    buckets.set(bucket, figures);
  }
  for (const [bucket, { busy, all }] of buckets)
    console.log(`${String(bucket).padStart(5)} s  busy ${Math.round((busy / (all || 1)) * 100)}%`);
  process.exit(0);
}

const from = Number(values.from);
const to = Number(values.to ?? Infinity);
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let window = 0;
let busy = 0;
for (const sample of samples) {
  if (sample.at < from || sample.at > to) continue;
  window += sample.seconds;
  if (isIdle(sample.node)) continue;
  busy += sample.seconds;
  const own = label(sample.node);
  self.set(own, (self.get(own) ?? 0) + sample.seconds);
  // Each function once per sample, however often it recurs on the stack.
  const onStack = new Set<string>();
  for (let id: number | undefined = sample.node.id; id !== undefined; id = parentOf.get(id))
    onStack.add(label(byId.get(id)!));
  for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + sample.seconds);
}
const print = (title: string, totals: Map<string, number>) => {
  console.log(`--- ${title}`);
  for (const [name, seconds] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${seconds.toFixed(2).padStart(8)} s  ${name}`);
};
console.log(
  `${from}-${to} s: ${window.toFixed(1)} s sampled, the thread busy ${busy.toFixed(1)} s`,
);
print("self", self);
print("inclusive", inclusive);
