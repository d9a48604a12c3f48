// Adds timers to a system clock with POST /clocks/{clock}/batch (1,000 adds per call), for issue 16's benchmarks.
//   node delivery-feed.js rate <port> <clock> <perSecond> <seconds> [aheadMs=2000] [prefix=t]
//     keeps timers coming due at perSecond for seconds: every 100 ms one batch whose timers are due evenly spread
//     over a 100 ms window aheadMs ahead of now (delay = due time - Date.now() when sent).
//   node delivery-feed.js preload <port> <clock> <count> [prefix=p]
//     adds count timers, each due 1 s after its batch is sent (4 batches in flight): once the last is due, all are.
// port may list instances ("p1,p2"): batches go round-robin over them (bench/targets.js).
// Prints one FEED line: timers added, batches, the worst batch round trip and how far behind schedule it fell.
const {httpCaller} = require("./targets.js");
const [mode, port, clock] = process.argv.slice(2, 5);
const call = httpCaller(port, 8);
const BATCH = 1000;
const batch = ops => call("POST", `/clocks/${clock}/batch`, {ops});

async function rate(perSecond, seconds, aheadMs, prefix) {
  const windowMs = 1000 * BATCH / perSecond; // one batch per window
  const start = Date.now();
  const windows = Math.round(seconds * 1000 / windowMs);
  let worstMs = 0, behindMs = 0, sent = [];
  for (let w = 0; w < windows; w++) {
    const sendAt = start + w * windowMs;
    const wait = sendAt - Date.now();
    if (wait > 0) await new Promise(r => setTimeout(r, wait));
    behindMs = Math.max(behindMs, Date.now() - sendAt);
    const dueFrom = sendAt + aheadMs;
    const now = Date.now();
    const ops = [];
    for (let i = 0; i < BATCH; i++) {
      ops.push({op: "add", id: `${prefix}${w * BATCH + i}`, delay: Math.max(0, Math.round(dueFrom + i * windowMs / BATCH - now))});
    }
    const t0 = Date.now();
    sent.push(batch(ops).then(() => { worstMs = Math.max(worstMs, Date.now() - t0); }));
  }
  await Promise.all(sent);
  console.log(`FEED added=${windows * BATCH} batches=${windows} worst_batch_ms=${worstMs} worst_behind_ms=${behindMs}`);
}

async function preload(count, prefix) {
  const start = Date.now();
  let next = 0, worstMs = 0;
  async function worker() {
    while (next < count) {
      const from = next;
      next = Math.min(count, next + BATCH);
      const ops = [];
      for (let i = from; i < next; i++) ops.push({op: "add", id: `${prefix}${i}`, delay: 1000});
      const t0 = Date.now();
      await batch(ops);
      worstMs = Math.max(worstMs, Date.now() - t0);
    }
  }
  await Promise.all(Array.from({length: 4}, worker));
  console.log(`FEED added=${count} preload_s=${((Date.now() - start) / 1000).toFixed(2)}`
    + ` worst_batch_ms=${worstMs}`);
}

const run = mode === "rate"
  ? () => rate(Number(process.argv[5]), Number(process.argv[6]), Number(process.argv[7] || 2000), process.argv[8] || "t")
  : () => preload(Number(process.argv[5]), process.argv[6] || "p");
run().then(() => process.exit(0), e => { console.error(e); process.exit(1); });
