-- wrk script: POSTs search bodies read from the file named by $BODIES (one JSON body a
-- line; the compare harness writes Q2 and Q6 alternately) to $SEARCH_PATH, round-robin,
-- with the API key from $KEY. Prints one parseable summary line.
local bodies = {}
local i = 0

function init(args)
  for line in io.lines(os.getenv("BODIES")) do
    if #line > 0 then table.insert(bodies, line) end
  end
  i = math.random(#bodies)
end

function request()
  i = i % #bodies + 1
  return wrk.format("POST", os.getenv("SEARCH_PATH"),
    {["Content-Type"] = "application/json", ["apikey"] = os.getenv("KEY")}, bodies[i])
end

done = function(summary, latency, requests)
  io.write(string.format("SUMMARY requests %d duration_us %d p50_us %d p99_us %d connect %d read %d write %d timeout %d status %d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, summary.errors.status))
end
