-- wrk script: a match query on the demo tool registry (POST with a JSON body).
-- Usage: KEY=$(cat metagate-demo.redb.key) wrk -t2 -c64 -d20s -s benches/http/match.lua http://127.0.0.1:9200
wrk.method = "POST"
wrk.path = "/elastic/v1/RIN_Tool_pr/_search"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["apikey"] = os.getenv("KEY")
wrk.body = '{"query":{"match":{"item.description":"sequence alignment"}},"size":10}'

done = function(summary, latency, requests)
  io.write(string.format("requests/s %.1f  p50 %.2fms  p99 %.2fms  errors %d non2xx %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.errors.status))
end
