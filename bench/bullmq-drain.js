// BullMQ's side of the drain benchmark (issue 16): adds COUNT jobs, each delayed 1 s (addBulk, 1,000 per call),
// waits until the last is due (so all are due at once when the worker starts), then one Worker with CONCURRENCY drains them with a processor that does
// nothing; removeOnComplete, so a finished job leaves Redis as an acknowledged delivery leaves TimeService.
// Timed from the worker's start until the last job completed (worker.close() waits for the jobs in flight).
// REDIS_DB and BULLMQ_PREFIX choose its database and key prefix (bench/targets.js).
// Usage: node bullmq-drain.js <redisPort> <count> [concurrency=50] [label=bullmq]
const {Queue, Worker} = require("bullmq");
const {bullmqOptions} = require("./targets.js");
const port = Number(process.argv[2]);
const count = Number(process.argv[3]);
const concurrency = Number(process.argv[4] || 50);
const label = process.argv[5] || "bullmq";
const options = bullmqOptions(port);

async function main() {
  const queue = new Queue("drain", options);
  await queue.obliterate({force: true}).catch(() => {});
  const start = Date.now();
  for (let from = 0; from < count; from += 1000) {
    const jobs = [];
    for (let i = from; i < Math.min(count, from + 1000); i++) {
      jobs.push({name: "t", data: {n: i}, opts: {jobId: "d" + i, delay: 1000, removeOnComplete: true}});
    }
    await queue.addBulk(jobs);
  }
  const lastDue = Date.now() + 1000;
  const preloadSeconds = (Date.now() - start) / 1000;
  while (Date.now() <= lastDue + 50) await new Promise(r => setTimeout(r, 10));
  let processed = 0;
  let finish;
  const allProcessed = new Promise(resolve => { finish = resolve; });
  const t0 = process.hrtime.bigint();
  const worker = new Worker("drain", async () => {
    if (++processed === count) finish();
  }, {...options, concurrency});
  await allProcessed;
  await worker.close(); // waits until the last jobs are marked completed
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const left = await queue.getJobCounts("wait", "delayed", "active", "prioritized");
  const remaining = Object.values(left).reduce((a, b) => a + b, 0);
  console.log(`RESULT ${label} acked=${count} seconds=${seconds.toFixed(2)} acked_per_s=${(count / seconds).toFixed(0)}`
    + ` concurrency=${concurrency} preload_s=${preloadSeconds.toFixed(2)} left=${remaining}`);
  await queue.close();
}

main().then(() => process.exit(0), e => { console.error(e); process.exit(1); });
