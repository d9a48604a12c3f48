// Adds COUNT timers over HTTP with 64 requests in flight: ids "r<i>", delays spread over an hour of virtual ms.
// Usage: node bench/preload.js <port> <count>
const http = require("http");
const port = Number(process.argv[2]);
const count = Number(process.argv[3]);
const agent = new http.Agent({keepAlive: true, maxSockets: 64});
let next = 0;
function add(i) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({id: "r" + i, delay: 1 + (i * 7919) % 3600000, priority: i % 4});
    const req = http.request({host: "127.0.0.1", port, path: "/timers", method: "POST", agent,
      headers: {"Content-Type": "application/json", "Content-Length": Buffer.byteLength(body)}}, res => {
        res.resume();
        res.on("end", () => res.statusCode === 201 ? resolve() : reject(new Error("status " + res.statusCode)));
      });
    req.on("error", reject);
    req.end(body);
  });
}
async function worker() { while (next < count) { await add(next++); } }
const start = Date.now();
Promise.all(Array.from({length: 64}, worker)).then(() => {
  console.log(`preloaded ${count} timers in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  process.exit(0);
}, e => { console.error(e); process.exit(1); });
