-- The mixed workload: 50% add, 20% cancel, 20% edit, 10% advance by 1 ms, at roughly steady size.
-- Each connection works on its own ids, so cancels and edits target timers it added itself.
-- thread_id is a global that setup() gives each thread (a local here would shadow it: every thread would be 0)
local threads = {}
local added = 0
local next_target = 0
local step = 0

function setup(thread)
  thread:set("thread_id", #threads)
  table.insert(threads, thread)
end

local function target()
  -- cycle over the ids this thread added, oldest first
  if next_target >= added then next_target = 0 end
  next_target = next_target + 1
  return string.format("m%d-%d", thread_id, next_target)
end

function request()
  step = step + 1
  local r = step % 10
  if r < 5 or added == 0 then
    added = added + 1
    local body = string.format('{"id":"m%d-%d","delay":%d}', thread_id, added, 1000 + (added * 7919) % 3600000)
    return wrk.format("POST", "/timers", {["Content-Type"] = "application/json"}, body)
  elseif r < 7 then
    return wrk.format("DELETE", "/timers/" .. target())
  elseif r < 9 then
    local body = string.format('{"delay":%d}', 1000 + (step * 104729) % 3600000)
    return wrk.format("PATCH", "/timers/" .. target(), {["Content-Type"] = "application/json"}, body)
  else
    return wrk.format("POST", "/clock/advance", {["Content-Type"] = "application/json"}, '{"by":1}')
  end
end

done = dofile(os.getenv("BENCH_DIR") .. "/report.lua")
