import { runOpenLoop } from "./lib/open-loop";
import { runPhase } from "./lib/load";
import { createPartners, tokenRotation } from "./lib/partners";
import { catalogWithSearchMix } from "./lib/query-mix";
import { startService } from "./lib/service";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
const main = async () => {
  const rate = Number(process.argv[2] ?? 90);
  const dir = process.argv[3] ?? "/tmp/sp/srv";
  const log = (line: string) => console.log(line);
  const { database, mix } = await catalogWithSearchMix(1_000_000, log);
  const service = await startService({
    databaseUrl: database.url, searchImpl: "memory", log,
    env: { NODE_OPTIONS: "--require /tmp/sp/hook.cjs", PROF_DIR: dir },
  });
  try {
    const partners = await createPartners({ baseUrl: service.baseUrl, databaseUrl: database.url, count: 200 });
    const authorization = tokenRotation(partners);
    let n = 0;
    const next = () => ({ path: mix[n++ % mix.length], headers: { authorization: authorization(), "cache-control": "no-cache" } });
    await runPhase({ baseUrl: service.baseUrl, connections: 8, durationSeconds: 5, next });
    const t = await runPhase({ baseUrl: service.baseUrl, connections: 32, durationSeconds: 10, next });
    console.log("throughput", JSON.stringify(t));
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/start`, "1");
    const r = await runOpenLoop({ baseUrl: service.baseUrl, durationSeconds: 20, rate, next });
    console.log("open loop", rate, JSON.stringify(r));
    writeFileSync(`${dir}/stop`, "1");
    for (let i = 0; i < 100 && !existsSync(`${dir}/written`); i++) await new Promise((r) => setTimeout(r, 200));
  } finally {
    await service.stop();
  }
};
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
