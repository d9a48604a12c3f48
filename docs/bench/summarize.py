#!/usr/bin/env python3
"""Turns JMH JSON results of TimerQueueBenchmark (plus the CPU-share CSV it writes) into tables small enough to keep.

Usage: python3 docs/bench/summarize.py target/jmh-result.json target/jmh-cpu-share.csv [full|key] > tables.md
       python3 docs/bench/summarize.py csv run1.json [run2.json ...] > runs.csv
full/key: Markdown; per operation and n, every design's median of the measurement iterations, their min-max, JMH's
score +- error (99.9% CI), the ratio of medians to heap4, allocation per op (gc profiler) and the benchmark thread's
CPU share (key: the medians and ratios only). csv: one row per file, benchmark and config with forks, iterations,
median, min, max, score, error, allocation and each fork's median, so A/B runs keep their spread without the raw JSON.
"""
import csv
import json
import statistics
import sys
from collections import defaultdict

ORDER = ["heap2", "heap4", "heap8", "treeMap", "pqTombstones", "pqRemove", "sortedArray"]
OPS = ["add", "cancel", "editEarlier", "editLater", "fire", "peek", "first100", "mixed"]
UNIT = {"fire": "ns per fired timer", "first100": "ns per listing of 100", "mixed": "ns per operation of the mix"}


def fmt(x):
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def main(result_path, share_path=None, mode="full"):
    key_only = mode == "key"
    results = json.load(open(result_path))
    shares = defaultdict(list)
    if share_path:
        for row in csv.reader(open(share_path)):
            method, config, kind = row[0], row[1], row[2]
            if kind == "MEASUREMENT":
                shares[(method, config)].append(float(row[6]))
    table = defaultdict(dict)
    for r in results:
        op = r["benchmark"].rsplit(".", 1)[1]
        design, n = r["params"]["config"].split(":")
        raw = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
        alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
        share = shares.get((op, r["params"]["config"]))
        table[(op, int(n))][design] = dict(
            median=statistics.median(raw), lo=min(raw), hi=max(raw), score=r["primaryMetric"]["score"],
            error=r["primaryMetric"]["scoreError"], alloc=alloc,
            share=statistics.mean(share) if share else None)
    if key_only:
        for n in (10_000, 100_000, 1_000_000):
            designs = [d for d in ORDER if any(d in table.get((op, n), {}) for op in OPS)]
            print(f"**n = {n:,}** — median ns/op (wall clock), in brackets the ratio to heap4 (>1 = slower than ours)\n")
            print("| operation | " + " | ".join(designs) + " |")
            print("|---|" + "---:|" * len(designs))
            for op in OPS:
                rows = table.get((op, n), {})
                ref = rows.get("heap4", {}).get("median")
                cells = []
                for d in designs:
                    v = rows.get(d)
                    cells.append("-" if not v else f"{fmt(v['median'])} ({v['median'] / ref:.2f})" if d != "heap4"
                                 else f"**{fmt(v['median'])}**")
                print(f"| {op} | " + " | ".join(cells) + " |")
            print()
        return
    for op in OPS:
        for n in (10_000, 100_000, 1_000_000):
            rows = table.get((op, n))
            if not rows:
                continue
            ref = rows.get("heap4", {}).get("median")
            print(f"#### {op}, n = {n:,} ({UNIT.get(op, 'ns per operation')})\n")
            print("| design | median | min–max | JMH score ± error | vs heap4 | alloc B/op | CPU share | median × share |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|")
            for design in ORDER:
                v = rows.get(design)
                if not v:
                    continue
                ratio = f"{v['median'] / ref:.2f}×" if ref else "-"
                adj = fmt(v["median"] * v["share"]) if v["share"] else "-"
                share = f"{v['share']:.2f}" if v["share"] else "-"
                print(f"| {design} | {fmt(v['median'])} | {fmt(v['lo'])}–{fmt(v['hi'])} | "
                      f"{fmt(v['score'])} ± {fmt(v['error'])} | {ratio} | {fmt(v['alloc'])} | {share} | {adj} |")
            print()


def to_csv(paths):
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["run", "benchmark", "config", "forks", "iterations", "median_ns", "min_ns", "max_ns", "score_ns",
                  "error_ns", "alloc_b_per_op", "fork_medians_ns"])
    for path in paths:
        run = path.rsplit("/", 1)[-1].removesuffix(".json")
        for r in json.load(open(path)):
            forks = r["primaryMetric"]["rawData"]
            raw = [x for fork in forks for x in fork]
            alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
            out.writerow([run, r["benchmark"].rsplit(".", 1)[1], r["params"]["config"], len(forks), len(raw),
                          f"{statistics.median(raw):.1f}", f"{min(raw):.1f}", f"{max(raw):.1f}",
                          f"{r['primaryMetric']['score']:.1f}", f"{r['primaryMetric']['scoreError']:.1f}",
                          "" if alloc is None else f"{alloc:.2f}",
                          " ".join(f"{statistics.median(f):.1f}" for f in forks)])


if __name__ == "__main__":
    if sys.argv[1] == "csv":
        to_csv(sys.argv[2:])
    else:
        main(*sys.argv[1:])
