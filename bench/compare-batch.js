// Batches side by side (issue 17): BullMQ's addBulk against TimeService's POST /batch, and mixed batches of adds,
// edits and cancels against BullMQ's closest equivalent, from this one Node.js process with the same number of
// calls in flight. Each run lasts a fixed time; every call carries up to `size` operations.
//   adds:  BullMQ queue.addBulk(size delayed jobs with ids) (one MULTI/EXEC)  |  POST /batch with size adds
//   mixed: per call, a third adds of new ids, a third edits of the ids this worker added in its previous call, a third
//          cancels of the ids it added two calls before (edited in the previous call): the pending count stays flat.
//          BullMQ: addBulk(adds), then every changeDelay (on the Job objects addBulk returned, so no getJob round
//          trip) and every remove issued at once, pipelined on the one connection, awaited together; the call ends
//          when all have answered. Not atomic across kinds (BullMQ has no such call). TimeService: one POST /batch,
//          all or nothing.
// Per-operation latency is the call's latency divided by the operations it carried (amortized).
// TimeService's port may list instances ("p1,p2"): calls go round-robin over them; BullMQ: REDIS_DB and
// BULLMQ_PREFIX (both bench/targets.js).
// Usage: node compare-batch.js <bullmq|timeservice> <port> <adds|mixed> <seconds> <inFlight> [size=100] [label]
const {httpCaller, bullmqOptions} = require("./targets.js");
const [target, port, scenario, secondsArg, inFlightArg, sizeArg, labelArg] = process.argv.slice(2);
const seconds = Number(secondsArg), inFlight = Number(inFlightArg);
const size = Number(sizeArg || 100);
const label = labelArg || target;
const delay = i => 60000 + (i * 7919) % 3600000;
const third = Math.floor(size / 3), addsPerMixed = size - 2 * third;

async function runTimed(call) {
  const latencies = [], opsPerCall = [];
  let ops = 0, seq = 0;
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const start = process.hrtime.bigint();
  async function worker(w) {
    const state = {w, calls: 0, previous: [], beforePrevious: []};
    while (process.hrtime.bigint() < deadline) {
      const t0 = process.hrtime.bigint();
      const n = await call(state, () => seq++);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      opsPerCall.push(n);
      ops += n;
      state.calls++;
    }
  }
  await Promise.all(Array.from({length: inFlight}, (_, w) => worker(w)));
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  const perOp = latencies.map((l, i) => l / opsPerCall[i]);
  const pct = (a, p) => { const s = Float64Array.from(a).sort(); return s[Math.min(s.length - 1, Math.floor(s.length * p / 100))].toFixed(3); };
  console.log(`RESULT target=${label} scenario=${scenario} size=${size} inFlight=${inFlight} seconds=${elapsed.toFixed(2)}`
    + ` calls=${latencies.length} ops=${ops} ops_per_s=${(ops / elapsed).toFixed(0)} calls_per_s=${(latencies.length / elapsed).toFixed(0)}`
    + ` batch_p50_ms=${pct(latencies, 50)} batch_p99_ms=${pct(latencies, 99)}`
    + ` op_p50_ms=${pct(perOp, 50)} op_p99_ms=${pct(perOp, 99)}`);
}

// ids of a mixed call: adds new ids; edits the previous call's ids; cancels the ids of the call before it
function mixedPlan(state, next) {
  const adds = Array.from({length: addsPerMixed}, () => { const i = next(); return {id: "m" + i, i}; });
  const edits = state.previous.slice(0, third);
  const cancels = state.beforePrevious.slice(0, third);
  return {adds, edits, cancels};
}

async function bullmq() {
  const {Queue} = require("bullmq");
  const queue = new Queue("bench", bullmqOptions(port));
  await queue.obliterate({force: true}).catch(() => {});
  if (scenario === "adds") {
    await runTimed(async (state, next) => {
      const jobs = Array.from({length: size}, () => { const i = next(); return {name: "t", data: {n: i}, opts: {delay: delay(i), jobId: "j" + i}}; });
      await queue.addBulk(jobs);
      return size;
    });
  } else {
    await runTimed(async (state, next) => {
      const {adds, edits, cancels} = mixedPlan(state, next);
      const added = await queue.addBulk(adds.map(a => ({name: "t", data: {n: a.i}, opts: {delay: delay(a.i), jobId: a.id}})));
      await Promise.all([...edits.map(e => e.job.changeDelay(delay(e.i + 1))), ...cancels.map(c => queue.remove(c.id))]);
      state.beforePrevious = state.previous;
      state.previous = adds.map((a, k) => ({...a, job: added[k]}));
      return adds.length + edits.length + cancels.length;
    });
  }
  await queue.close();
}

async function timeservice() {
  const call = httpCaller(port, inFlight);
  const post = body => call("POST", "/batch", body);
  if (scenario === "adds") {
    await runTimed(async (state, next) => {
      const ops = Array.from({length: size}, () => { const i = next(); return {op: "add", id: "j" + i, delay: delay(i), payload: {n: i}}; });
      await post({ops});
      return size;
    });
  } else {
    await runTimed(async (state, next) => {
      const {adds, edits, cancels} = mixedPlan(state, next);
      const ops = [...adds.map(a => ({op: "add", id: a.id, delay: delay(a.i), payload: {n: a.i}})),
        ...edits.map(e => ({op: "edit", id: e.id, delay: delay(e.i + 1)})),
        ...cancels.map(c => ({op: "cancel", id: c.id}))];
      await post({ops});
      state.beforePrevious = state.previous;
      state.previous = adds;
      return ops.length;
    });
  }
}

({bullmq, timeservice})[target]().then(() => process.exit(0), e => { console.error(e); process.exit(1); });
