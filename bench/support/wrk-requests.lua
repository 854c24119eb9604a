-- wrk's script for the service benchmarks (bench/support/wrk.ts): every request prepared beforehand, the
-- mix drawn in Node and written to a file, sent in its order over and over, so that wrk spends its time on
-- sockets and HTTP only. The file holds each request as its length in bytes on a line of its own, then the
-- request itself (head and body, ready to send).
--
-- BENCH_ORIGINS ("host:port,host:port"): thread k talks to origin k mod n, as a load balancer keeping its
-- connections open would spread them over instances. BENCH_FORBIDDEN: a text no answer may hold (a SOAP
-- fault element); BENCH_BYTES: the size every answer must have, where it is known. Every answer is checked:
-- its status must be 2xx (wrk itself only counts 400 and above), its body free of the forbidden text and of
-- the expected size. done() prints one line of JSON: the requests, the errors by kind, the first wrong answer,
-- p50 and p99, and the CPU wrk itself used (its threads' together, from /proc/self/stat).

local prepared = {}
local count = 0
local at = 0
local thread_count = 0
local threads = {}

-- Per thread (each has its own Lua state): answers that were not 2xx, that held the forbidden text, that
-- had another size; the first such answer's status and beginning.
non2xx = 0
faults = 0
wrong_size = 0
first_wrong = ""

function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
  local origins = os.getenv("BENCH_ORIGINS")
  if origins == nil or origins == "" then return end
  local list = {}
  for origin in string.gmatch(origins, "[^,]+") do
    local host, port = string.match(origin, "^(.+):(%d+)$")
    table.insert(list, { host = host, port = port })
  end
  local origin = list[(thread_count - 1) % #list + 1]
  thread.addr = wrk.lookup(origin.host, origin.port)[1]
end

local forbidden = nil
local bytes = nil

function init(args)
  local file = assert(io.open(args[1], "rb"))
  while true do
    local line = file:read("*l")
    if line == nil then break end
    count = count + 1
    prepared[count] = file:read(tonumber(line))
  end
  file:close()
  local f = os.getenv("BENCH_FORBIDDEN")
  if f ~= nil and f ~= "" then forbidden = f end
  local b = os.getenv("BENCH_BYTES")
  if b ~= nil and b ~= "" then bytes = tonumber(b) end
  -- The threads begin at different places of the sequence, as clients of their own would.
  at = id * 997 % count
end

function request()
  at = at + 1
  if at > count then at = 1 end
  return prepared[at]
end

local function wrong(status, body)
  if first_wrong == "" then first_wrong = status .. " " .. string.sub(body or "", 1, 200) end
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
    wrong(status, body)
  elseif forbidden ~= nil and body ~= nil and string.find(body, forbidden, 1, true) then
    faults = faults + 1
    wrong(status, body)
  elseif bytes ~= nil and (body == nil or #body ~= bytes) then
    wrong_size = wrong_size + 1
    wrong(status, body)
  end
end

local function cpu_ticks()
  local stat = io.open("/proc/self/stat", "r")
  if stat == nil then return -1 end
  local text = stat:read("*a")
  stat:close()
  -- The fields after the command name, which is in parentheses: utime and stime are the 12th and 13th.
  local rest = string.match(text, "%) (.*)$")
  local fields = {}
  for field in string.gmatch(rest, "%S+") do table.insert(fields, field) end
  return tonumber(fields[12]) + tonumber(fields[13])
end

-- A JSON string of `text`: quotes, backslashes and control characters escaped.
local function json_string(text)
  return '"' .. string.gsub(text, '[%c"\\]', function(c) return string.format("\\u%04x", string.byte(c)) end) .. '"'
end

function done(summary, latency, requests)
  local e = summary.errors
  local n, f, s, first = 0, 0, 0, ""
  for _, thread in ipairs(threads) do
    n = n + thread:get("non2xx")
    f = f + thread:get("faults")
    s = s + thread:get("wrong_size")
    if first == "" then first = thread:get("first_wrong") end
  end
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
    '"non2xx":%d,"faults":%d,"wrongSize":%d,"firstWrong":%s,"cpuTicks":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout, n, f, s, json_string(first), cpu_ticks()))
end
