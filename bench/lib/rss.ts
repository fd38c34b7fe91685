/**
 * Samples the resident memory (VmRSS in /proc/<pid>/status) of a process tree: `npm start` runs
 * npm, then tsx, then the node process that serves; the largest is the service.
 */
import { readdirSync, readFileSync } from "node:fs";

const parentOf = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return -1;
  }
};

const rssKiB = (pid: number) => {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
};

/** False once the process has ended (a zombie waiting for its parent counts as ended). */
export const isRunning = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
};

/** Pids of `root` and all its descendants. */
export const processTree = (root: number): number[] => {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
};

/** Samples every `intervalMs` until stopped; reports the serving process's peak and last RSS in MB. */
export const sampleRss = (root: number, intervalMs = 250) => {
  let peak = 0;
  let last = 0;
  const sample = () => {
    last = Math.max(0, ...processTree(root).map(rssKiB)) / 1024;
    peak = Math.max(peak, last);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    /** Resets the peak (e.g. after the index build, to report memory while serving). */
    reset: () => {
      sample();
      peak = last;
    },
    stop: () => {
      clearInterval(timer);
      sample();
      return { peakMb: Math.round(peak), lastMb: Math.round(last) };
    },
  };
};
