#!/usr/bin/env python3
"""One round of bench/ha-failover.sh (issue 48): a steady mix against two TimeService instances on the HA cluster of
bench/ha-cluster.sh, one failure of the primary in the middle (`kill`: kill -9 of its postmaster; `switchover`: a
planned one through Patroni), then the client's log of every 2xx compared with the database.

The mix, each request to the two instances in turn: single adds and batches of 10 adds to a system queue clock (due
1 s later), claims (long polls of 1 s, leases of 10 s) and acks of its deliveries by two workers, and adds to a
system push clock whose deliveries the service pushes to a receiver on 127.0.0.1 that answers 200.

Checks after the load has stopped and drained, each an assertion of the round (a FAIL line, exit status 1):
  adds      every add answered 2xx exists exactly once in the database (a pending timer or a delivery in any state)
  acks      every ack answered 204 left its delivery acked
  states    every delivery is ready, in_flight, waiting, dead or acked (none vanished: the add check counts them)
  pushes    every push the receiver got is a delivery of the database; pushes got more than once are counted
  answers   every answer was 2xx, 409 claim_lost (a lease the failover outlived) or 503 storage_unavailable with
            Retry-After; no 500, no request longer than the client's timeout (10 s)
  instances both instances answer at the end; readiness went DOWN and came back UP (reported, not asserted)
Figures (RESULT line): time from the first failed request (its answer) to the first success started after it,
requests failed, p99 and max latency of the requests (claims, which long-poll, left out) started from 1 s before the
first failure to 5 s after the recovery, and the p99 of those before the failure.
"""
import http.client
import http.server
import json
import os
import subprocess
import sys
import threading
import time

BASES = os.environ.get("BASES", "127.0.0.1:18081,127.0.0.1:18082").split(",")
EVENT = sys.argv[1] if len(sys.argv) > 1 else "kill"
ROUND = sys.argv[2] if len(sys.argv) > 2 else "1"
HA = os.environ.get("HA_SCRIPT", "bench/ha-cluster.sh")
HA_DIR = os.environ.get("HA_DIR", "target/ha")
PGBOUNCER_PORT = os.environ.get("HA_PORT", "15432")
RECEIVER_PORT = int(os.environ.get("RECEIVER_PORT", "18090"))
WARM_SECONDS = float(os.environ.get("WARM_SECONDS", "8"))
AFTER_SECONDS = float(os.environ.get("AFTER_SECONDS", "8"))
MAX_SECONDS = float(os.environ.get("MAX_SECONDS", "90"))
TIMEOUT = 10.0

queue_clock = f"haq-{ROUND}-{int(time.time())}"
push_clock = f"hap-{ROUND}-{int(time.time())}"
lock = threading.Lock()
log = []            # (start, end, kind, status, detail)
acked_adds = set()  # (clock, id)
acked_acks = set()  # (clock, id)
pushed = {}         # id -> times received
readiness = {b: [] for b in BASES}  # (time, status)
stop_load = threading.Event()
stop_all = threading.Event()


class Client:
    """One persistent connection per instance, reopened after a failure."""

    def __init__(self):
        self.connections = {}

    def send(self, base, method, path, body=None):
        host, port = base.split(":")
        started = time.time()
        try:
            connection = self.connections.get(base) or http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
            self.connections[base] = connection
            payload = json.dumps(body) if body is not None else None
            connection.request(method, path, body=payload, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            text = response.read().decode()
            return started, time.time(), response.status, text, response.getheader("Retry-After")
        except Exception as failure:  # a reset, a timeout: the outcome is unknown
            self.connections.pop(base, None)
            return started, time.time(), -1, repr(failure), None


def record(kind, started, ended, status, text, retry_after):
    code = ""
    if status >= 400:
        try:
            code = json.loads(text).get("code", "")
        except ValueError:
            code = "?"
    detail = code
    if status == 503 and code == "storage_unavailable" and retry_after is None:
        detail = "storage_unavailable without Retry-After"
    if status == -1:
        detail = text[:80]
    with lock:
        log.append((started, ended, kind, status, detail))


def adder(worker, batch):
    client, n, turn = Client(), 0, worker
    while not stop_load.is_set():
        base = BASES[turn % len(BASES)]
        turn += 1
        if batch:
            ids = [f"b{worker}-{n}-{k}" for k in range(10)]
            answer = client.send(base, "POST", f"/clocks/{queue_clock}/batch",
                                 {"ops": [{"op": "add", "id": i, "delay": 1000} for i in ids]})
        else:
            ids = [f"a{worker}-{n}"]
            answer = client.send(base, "POST", f"/clocks/{queue_clock}/timers", {"id": ids[0], "delay": 1000})
        n += 1
        record("batch" if batch else "add", *answer[:3], answer[3], answer[4])
        if 200 <= answer[2] < 300:
            with lock:
                acked_adds.update((queue_clock, i) for i in ids)
        time.sleep(0.02)


def push_adder():
    client, n = Client(), 0
    while not stop_load.is_set():
        base = BASES[n % len(BASES)]
        answer = client.send(base, "POST", f"/clocks/{push_clock}/timers", {"id": f"p-{n}", "delay": 500})
        record("push-add", *answer[:3], answer[3], answer[4])
        if 200 <= answer[2] < 300:
            with lock:
                acked_adds.add((push_clock, f"p-{n}"))
        n += 1
        time.sleep(0.05)


def worker(number):
    client, turn, empty = Client(), number, 0
    while not stop_all.is_set():
        base = BASES[turn % len(BASES)]
        turn += 1
        answer = client.send(base, "POST", f"/clocks/{queue_clock}/deliveries/claim",
                             {"max": 10, "lease": 10000, "wait": 1000})
        record("claim", *answer[:3], answer[3], answer[4])
        if answer[2] != 200:
            time.sleep(0.1)
            continue
        deliveries = json.loads(answer[3])["deliveries"]
        empty = empty + 1 if not deliveries else 0
        if stop_load.is_set() and empty >= 3:
            return  # drained
        for delivery in deliveries:
            ack = client.send(base, "POST", f"/clocks/{queue_clock}/deliveries/{delivery['id']}/ack",
                              {"claim": delivery["claim"]})
            record("ack", *ack[:3], ack[3], ack[4])
            if ack[2] == 204:
                with lock:
                    acked_acks.add((queue_clock, delivery["id"]))


def watch_readiness():
    client = Client()
    while not stop_all.is_set():
        for base in BASES:
            answer = client.send(base, "GET", "/actuator/health/readiness")
            status = "UP" if answer[2] == 200 else ("DOWN" if answer[2] == 503 else f"none({answer[2]})")
            with lock:
                if not readiness[base] or readiness[base][-1][1] != status:
                    readiness[base].append((time.time(), status))
        time.sleep(0.2)


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with lock:
            pushed[body["id"]] = pushed.get(body["id"], 0) + 1
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a pusher that closed its connection (its timeout, the instance's shutdown): nothing to report


def psql(sql, port=PGBOUNCER_PORT):
    return subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-qAt", "-F", "\t", "-c",
                           sql, "timeservice"], check=True, capture_output=True, text=True, timeout=60).stdout


def put_clocks():
    client = Client()
    for clock, body in ((queue_clock, {"mode": "system", "delivery": "queue"}),
                        (push_clock, {"mode": "system", "delivery": "push",
                                      "push": {"url": f"http://127.0.0.1:{RECEIVER_PORT}/hook", "timeout": 2000,
                                               "concurrency": 8}})):
        answer = client.send(BASES[0], "PUT", f"/clocks/{clock}", body)
        if answer[2] not in (200, 201):
            sys.exit(f"ha-failover: PUT /clocks/{clock} answered {answer[2]} {answer[3]}")


def fail_primary():
    if EVENT == "kill":
        port = subprocess.run([HA, "primary"], check=True, capture_output=True, text=True).stdout.strip()
        node = int(port) - int(PGBOUNCER_PORT)
        with open(f"{HA_DIR}/node{node}/data/postmaster.pid") as pidfile:
            pid = int(pidfile.readline())
        os.kill(pid, 9)
        return f"node{node} postmaster {pid} killed"
    subprocess.run([HA, "switchover"], check=True, capture_output=True, text=True, timeout=60)
    return "switchover"


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    receiver = QuietServer(("127.0.0.1", RECEIVER_PORT), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    put_clocks()
    threads = [threading.Thread(target=adder, args=(w, False)) for w in range(2)]
    threads += [threading.Thread(target=adder, args=(9, True)), threading.Thread(target=push_adder)]
    workers = [threading.Thread(target=worker, args=(w,)) for w in range(2)]
    watcher = threading.Thread(target=watch_readiness, daemon=True)
    for thread in threads + workers + [watcher]:
        thread.start()
    time.sleep(WARM_SECONDS)
    event_at = time.time()
    what = fail_primary()
    # until AFTER_SECONDS after the first success that follows the last failure, at most MAX_SECONDS
    while time.time() - event_at < MAX_SECONDS:
        time.sleep(0.5)
        with lock:
            after = [entry for entry in log if entry[0] >= event_at]
        failures = [e for e in after if not (200 <= e[3] < 300) and e[4] != "claim_lost"]
        if failures:
            last_failure = max(e[1] for e in failures)
            if any(200 <= e[3] < 300 and e[0] > last_failure for e in after) \
                    and time.time() - last_failure > AFTER_SECONDS:
                break
        elif time.time() - event_at > AFTER_SECONDS + 5:
            break
    stop_load.set()
    for thread in threads:
        thread.join()
    # drain: workers claim until three empty claims in a row; the pusher pushes what is left
    drain_until = time.time() + 60
    for thread in workers:
        thread.join(max(0.1, drain_until - time.time()))
    while time.time() < drain_until:
        with lock:
            missing = {i for c, i in acked_adds if c == push_clock} - set(pushed)
        if not missing:
            break
        time.sleep(0.5)
    stop_all.set()
    receiver.shutdown()

    problems = []
    # adds: exactly once in timers + deliveries
    rows = psql(f"SELECT clock, id, count(*) FROM (SELECT clock, id FROM timers WHERE clock IN ('{queue_clock}',"
                f" '{push_clock}') UNION ALL SELECT clock, id FROM deliveries WHERE clock IN ('{queue_clock}',"
                f" '{push_clock}')) r GROUP BY clock, id")
    counts = {}
    for line in rows.splitlines():
        clock, ident, count = line.split("\t")
        counts[(clock, ident)] = int(count)
    lost = [key for key in acked_adds if counts.get(key, 0) == 0]
    doubled = [key for key, count in counts.items() if count > 1]
    if lost:
        problems.append(f"{len(lost)} acknowledged adds missing, e.g. {sorted(lost)[:5]}")
    if doubled:
        problems.append(f"{len(doubled)} ids stored more than once, e.g. {sorted(doubled)[:5]}")
    unknown_landed = len([key for key in counts if key not in acked_adds])
    states = dict((tuple(line.split("\t")[:2]), line.split("\t")[2]) for line in psql(
        f"SELECT clock, id, state FROM deliveries WHERE clock IN ('{queue_clock}', '{push_clock}')").splitlines())
    not_acked = [key for key in acked_acks if states.get(key) != "acked"]
    if not_acked:
        problems.append(f"{len(not_acked)} acknowledged acks not acked in the database, e.g. {sorted(not_acked)[:5]}")
    odd = [key for key, state in states.items() if state not in ("ready", "in_flight", "waiting", "dead", "acked")]
    if odd:
        problems.append(f"{len(odd)} deliveries in no known state")
    strangers = [i for i in pushed if (push_clock, i) not in counts]
    if strangers:
        problems.append(f"{len(strangers)} pushes of ids the database does not have")
    pushed_again = sum(count - 1 for count in pushed.values() if count > 1)
    unpushed = len({i for c, i in acked_adds if c == push_clock} - set(pushed))
    bad = [e for e in log if not (200 <= e[3] < 300 or e[4] == "claim_lost"
                                  or (e[3] == 503 and e[4] == "storage_unavailable") or e[3] == -1)]
    if bad:
        problems.append(f"{len(bad)} answers neither 2xx nor 503 storage_unavailable with Retry-After nor"
                        f" claim_lost, e.g. {bad[:3]}")
    slow = [e for e in log if e[1] - e[0] >= TIMEOUT - 0.5]
    if slow:
        problems.append(f"{len(slow)} requests ran into the client's {TIMEOUT:.0f} s timeout")
    for base in BASES:
        if Client().send(base, "GET", "/actuator/health/readiness")[2] != 200:
            problems.append(f"instance {base} is not ready at the end")

    after = [e for e in log if e[0] >= event_at]
    failures = [e for e in after if not (200 <= e[3] < 300) and e[4] != "claim_lost"]
    if failures:
        first_failure = min(e[1] for e in failures)
        last_failure = max(e[1] for e in failures)
        first_success = min((e[1] for e in after if 200 <= e[3] < 300 and e[0] >= first_failure
                             and e[2] != "claim"), default=float("nan"))
        recovered = max(first_success, last_failure)
        window = [e[1] - e[0] for e in log if first_failure - 1 <= e[0] <= recovered + 5 and e[2] != "claim"]
    else:
        first_failure = first_success = float("nan")
        window = [e[1] - e[0] for e in after if e[0] <= event_at + 10 and e[2] != "claim"]
    before = [e[1] - e[0] for e in log if e[0] < event_at and e[2] != "claim"]
    kinds = {}
    for e in failures:
        key = f"{e[3]}:{e[4]}" if e[3] != -1 else "no-answer"
        kinds[key] = kinds.get(key, 0) + 1
    ready = {b: "".join(s[1][0] for s in readiness[b]) for b in BASES}
    print(f"ROUND event={EVENT} round={ROUND} {what}; acknowledged adds {len(acked_adds)}, acks {len(acked_acks)},"
          f" pushes received {len(pushed)} (again {pushed_again}, not yet {unpushed}),"
          f" unknown-outcome adds that landed {unknown_landed}; readiness {ready}; failures by kind {kinds}")
    print(f"RESULT event={EVENT} round={ROUND} first_failure_after_event_s={first_failure - event_at:.2f}"
          f" failure_to_success_s={first_success - first_failure:.2f} failed_requests={len(failures)}"
          f" requests={len(log)} p99_window_ms={percentile(window, 0.99) * 1000:.0f}"
          f" max_window_ms={max(window, default=float('nan')) * 1000:.0f}"
          f" p99_before_ms={percentile(before, 0.99) * 1000:.0f} lost={len(lost)} doubled={len(doubled)}"
          f" acks_not_acked={len(not_acked)} bad_answers={len(bad)}")
    for problem in problems:
        print(f"FAIL round={ROUND}: {problem}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
