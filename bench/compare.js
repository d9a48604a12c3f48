// Side-by-side throughput of the operations a user would otherwise do with BullMQ (Redis-backed delayed jobs):
// add a delayed job with an id, remove it by id, change its delay. Both targets are driven from this one Node.js
// process with the same number of operations in flight, so the client costs the same on both sides.
// stack-baseline is bench/stack-baseline (a Spring MVC POST /timers that does nothing): add only, for the HTTP
// stack's own ceiling under the same client.
// ops=add runs the add only (on every target). TimeService's port may list instances ("p1,p2"): calls go round-robin
// over them (bench/targets.js). BullMQ: REDIS_DB and BULLMQ_PREFIX (bench/targets.js).
// Usage: node bench/compare.js <bullmq|timeservice|stack-baseline> <port> [count=50000] [inFlight=50] [ops=all|add]
const {httpCaller, bullmqOptions} = require("./targets.js");
const target = process.argv[2];
const port = process.argv[3];
const count = Number(process.argv[4] || 50000);
const inFlight = Number(process.argv[5] || 50);
const addOnly = (process.argv[6] || "all") === "add";

async function runPhase(name, op) {
  let next = 0;
  const latencies = new Float64Array(count);
  const start = process.hrtime.bigint();
  async function worker() {
    while (next < count) {
      const i = next++;
      const t0 = process.hrtime.bigint();
      await op(i);
      latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
    }
  }
  await Promise.all(Array.from({length: inFlight}, worker));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  latencies.sort();
  const pct = p => latencies[Math.min(count - 1, Math.floor(count * p / 100))].toFixed(2);
  console.log(`RESULT target=${target} op=${name} count=${count} inFlight=${inFlight} seconds=${seconds.toFixed(2)}`
    + ` ops_per_s=${(count / seconds).toFixed(0)} p50_ms=${pct(50)} p99_ms=${pct(99)}`);
}

const delay = i => 60000 + (i * 7919) % 3600000;

async function bullmq() {
  const {Queue} = require("bullmq");
  const queue = new Queue("bench", bullmqOptions(port));
  await queue.obliterate({force: true}).catch(() => {});
  await runPhase("add", i => queue.add("t", {n: i}, {delay: delay(i), jobId: "j" + i}));
  if (addOnly) return queue.close();
  await runPhase("changeDelay", async i => (await queue.getJob("j" + i)).changeDelay(delay(i + 1)));
  await runPhase("remove", i => queue.remove("j" + i));
  await queue.close();
}

async function httpTarget(phases) {
  const call = httpCaller(port, inFlight);
  await runPhase("add", i => call("POST", "/timers", {id: "j" + i, delay: delay(i), payload: {n: i}}));
  if (phases === "all" && !addOnly) {
    await runPhase("changeDelay", i => call("PATCH", "/timers/j" + i, {delay: delay(i + 1)}));
    await runPhase("remove", i => call("DELETE", "/timers/j" + i));
  }
}

const run = {bullmq, timeservice: () => httpTarget("all"), "stack-baseline": () => httpTarget("add")}[target];
run().then(() => process.exit(0), e => { console.error(e); process.exit(1); });
