-- POST /clocks/bench-<k>/timers, spread round-robin over CLOCKS clocks (bench-0 .. bench-<CLOCKS-1>, created by
-- bench/clocks-http.sh), unique ids "<thread>-<counter>" as in post.lua. CLOCKS=1 sends everything to bench-0.
local counter = 0
local clocks = tonumber(os.getenv("CLOCKS") or "1")
-- thread_id is a global that setup() gives each thread (a local here would shadow it: every thread would be 0)
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads)
  table.insert(threads, thread)
end

function request()
  counter = counter + 1
  local body = string.format('{"id":"p%d-%d","delay":%d,"priority":%d}',
    thread_id, counter, 1000 + (counter * 7919) % 3600000, counter % 4)
  local path = string.format("/clocks/bench-%d/timers", (counter + thread_id) % clocks)
  return wrk.format("POST", path, {["Content-Type"] = "application/json"}, body)
end

done = dofile(os.getenv("BENCH_DIR") .. "/report.lua")
