// Advance benchmark: preload PRELOAD timers, BATCH per virtual ms, then advance 1 ms per call so every call fires
// BATCH timers (the scheduler runs advances one after another, each moving the clock by 1 ms, so concurrent calls
// still fire BATCH each). IN_FLIGHT calls are kept in flight, each on its own keep-alive connection.
// Usage: node bench/advance-bench.js <port> [preload=300000] [batch=1000] [inFlight=1]
const http = require("http");
const port = Number(process.argv[2]);
const preload = Number(process.argv[3] || 300000);
const batch = Number(process.argv[4] || 1000);
const inFlight = Number(process.argv[5] || 1);
const agent = new http.Agent({keepAlive: true, maxSockets: Math.max(64, inFlight)});

function call(method, path, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({host: "127.0.0.1", port, path, method, agent,
      headers: data ? {"Content-Type": "application/json", "Content-Length": Buffer.byteLength(data)} : {}}, res => {
        const chunks = [];
        res.on("data", c => chunks.push(c));
        res.on("end", () => resolve({status: res.statusCode, body: Buffer.concat(chunks).toString()}));
      });
    req.on("error", reject);
    req.end(data);
  });
}

async function preloadAll() {
  let next = 0;
  async function worker() {
    while (next < preload) {
      const i = next++;
      const res = await call("POST", "/timers", {id: "a" + i, delay: 1 + Math.floor(i / batch)});
      if (res.status !== 201) throw new Error("preload failed: " + res.status + " " + res.body);
    }
  }
  await Promise.all(Array.from({length: 64}, worker));
}

(async () => {
  await preloadAll();
  const calls = Math.floor(preload / batch);
  const latencies = [];
  let fired = 0;
  let started = 0;
  const start = process.hrtime.bigint();
  async function caller() {
    while (started < calls) {
      started++;
      const t0 = process.hrtime.bigint();
      const res = await call("POST", "/clock/advance", {by: 1});
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (res.status !== 200) throw new Error("advance failed: " + res.status + " " + res.body);
      fired += JSON.parse(res.body).fired.length;
    }
  }
  await Promise.all(Array.from({length: inFlight}, caller));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  latencies.sort((a, b) => a - b);
  const pct = p => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p / 100))].toFixed(2);
  console.log(`RESULT calls=${calls} inFlight=${inFlight} fired=${fired} seconds=${seconds.toFixed(2)}`
    + ` calls_per_s=${(calls / seconds).toFixed(0)} fired_per_s=${(fired / seconds).toFixed(0)} p50_ms=${pct(50)}`
    + ` p99_ms=${pct(99)} p999_ms=${pct(99.9)} max_ms=${latencies[latencies.length - 1].toFixed(2)}`);
  process.exit(0);
})().catch(e => { console.error(e); process.exit(1); });
