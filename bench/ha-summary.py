#!/usr/bin/env python3
"""Summarizes the RESULT lines of bench/ha-failover.sh (its target/ha-failover/results.txt, or the files named):
per pool layout and event, the median and the range over the rounds of each figure, and the rounds that lost
anything. Usage: bench/ha-summary.py [results.txt ...]"""
import statistics
import sys

FIGURES = ["failure_to_success_s", "failed_requests", "p99_window_ms", "max_window_ms", "p99_before_ms", "requests"]
groups = {}
for name in sys.argv[1:] or ["target/ha-failover/results.txt"]:
    for line in open(name):
        if line.startswith("RESULT "):
            fields = dict(pair.split("=", 1) for pair in line.split()[1:])
            groups.setdefault((fields.get("pool", "pgbouncer"), fields["event"]), []).append(fields)
for (pool, event), rounds in sorted(groups.items()):
    parts = []
    for figure in FIGURES:
        values = [float(r[figure]) for r in rounds if figure in r and r[figure] != "nan"]
        if values:
            parts.append(f"{figure} {statistics.median(values):g} ({min(values):g}-{max(values):g})")
    lossy = [r["round"] for r in rounds if any(r[k] != "0" for k in ("lost", "doubled", "acks_not_acked",
                                                                        "bad_answers"))]
    print(f"SUMMARY pool={pool} event={event} rounds={len(rounds)} rounds_losing_anything={len(lossy)}: "
          + ", ".join(parts))
