-- Shared wrk summary: one machine-readable line with throughput, latency percentiles and error counts.
return function(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local non2xx = summary.errors.status
  io.write(string.format(
    "RESULT requests=%d seconds=%.2f rps=%.0f p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f max_ms=%.2f non2xx=%d socket_errors=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000,
    latency.max / 1000, non2xx,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
