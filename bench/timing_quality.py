#!/usr/bin/env python3
"""How good is the judge's timing? Three measurements on a machine with a GPU, each driving
`arena eval` the way a user does and reading its JSON verdicts:

  repeat   the same solution judged R times in separate `arena eval` runs: per shape the
           median of each run, and their coefficient of variation (CV) across runs.
  ncu      the judge's median against Nsight Compute's gpu__time_duration.sum for the same
           kernel, same shape, caches flushed (--cache-control all), clocks left alone
           (--clock-control none): the relative difference per shape. ncu's reading is taken
           in a runner of its own (build/bench/ncu_solo: the one process under ncu); with
           --in-eval, of the `arena eval` itself, where ncu instruments every runner and the
           device helper and reads kernels longer (docs/timing.md, "Why ncu reads a kernel
           longer inside arena eval").
  latency  the wall time of one `arena eval` of a cached solution (warm) and of one with an
           empty compile cache (cold), and where the verdict says the seconds went.
  window   no `arena eval`: build/bench/event_window times probe kernels (empty ones, the
           vector_add starter's kernel at five sizes) exactly as the CUDA runner times a call,
           then runs them again under Nsight Compute; per probe the event window, ncu's
           gpu__time_duration.sum and the difference: the window's fixed part. With --cupti,
           CUPTI's record of each probe kernel too (its start and end as the device stamps them).
  aa       the solution judged against itself (--baseline the same file) R times, each run with
           its own seed and its own runner processes: per shape every run's speedup (identical
           code: 1 is the truth), their mean and spread, against the uncertainty each verdict
           claimed (timing.speedup_uncertainty, log scale), how many runs' 1 lay within it
           (covered: |ln speedup| <= the claim), and the runner offset in ns that the spread
           beyond the claim implies (src/judge/runner_offset.hpp).

Everything printed is also written as JSON with --json FILE. Python 3 standard library only.

  bench/timing_quality.py repeat  --task cuda/vector_add_f32 --solution tasks/cuda/vector_add_f32/starter.cu
  bench/timing_quality.py ncu     --task cuda/softmax_f32 --solution ... --kernel softmax
  bench/timing_quality.py latency --task cuda/vector_add_f32 --solution ...
  bench/timing_quality.py aa      --task cuda/prefix_sum_i32 --solution ... --runs 5
  bench/timing_quality.py window
"""

import argparse
import csv
import io
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def arena_eval(args, extra, cache_dir=None):
    """Runs one `arena eval`; returns (verdict dict, wall seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "verdict.json")
        cmd = [args.arena, "-q"]
        if cache_dir:
            cmd += ["--cache-dir", cache_dir]
        cmd += ["eval", "-t", args.task, "-s", args.solution, "--json", out] + extra
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wall = time.monotonic() - t0
        if not os.path.exists(out):
            sys.exit("arena eval wrote no verdict (exit %d):\n%s" % (p.returncode, p.stdout[-3000:]))
        with open(out) as f:
            return json.load(f), wall


def shape_args(args):
    extra = []
    for s in args.shape or []:
        extra += ["--shape", s]
    if args.max_time:
        extra += ["--max-time", str(args.max_time)]
    if args.warm:
        extra += ["--warm"]
    return extra


def label(shape):
    return " ".join("%s=%s" % kv for kv in sorted(shape["params"].items()))


def fmt_ns(ns):
    if ns is None:
        return "-"
    if ns >= 1e6:
        return "%.3f ms" % (ns / 1e6)
    return "%.2f us" % (ns / 1e3)


def cmd_repeat(args):
    runs = []
    for i in range(args.runs):
        v, wall = arena_eval(args, shape_args(args))
        runs.append(v)
        print("run %d/%d: %.1f s, %s" % (i + 1, args.runs, wall,
                                         "correct" if v["summary"]["correct_visible"] is not False else "NOT correct"),
              file=sys.stderr)
    result = []
    print("%-28s %10s %10s %10s %8s" % ("shape", "median", "min", "max", "CV"))
    for k, s in enumerate(runs[0]["shapes"]):
        medians = [r["shapes"][k]["timing"]["median_ns"] for r in runs if r["shapes"][k].get("timing")]
        if len(medians) < 2:
            continue
        mean = statistics.mean(medians)
        cv = statistics.pstdev(medians) / mean if mean else 0.0
        row = {"shape": label(s), "medians_ns": medians, "cv": cv}
        result.append(row)
        print("%-28s %10s %10s %10s %7.3f%%" % (row["shape"], fmt_ns(statistics.median(medians)), fmt_ns(min(medians)),
                                                fmt_ns(max(medians)), 100 * cv))
    return {"measure": "repeat", "task": args.task, "solution": args.solution, "runs": args.runs, "shapes": result}


def ncu_times(args, shape):
    """Nsight Compute's durations (ns) of the candidate's kernels, one per profiled launch."""
    ncu = shutil.which(args.ncu) or args.ncu
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "ncu.csv")
        cmd = [ncu, "--clock-control", "none", "--cache-control", "all", "--target-processes", "all",
               "--metrics", "gpu__time_duration.sum", "--csv", "--print-units", "base", "--log-file", log,
               "-k", "regex:" + args.kernel,
               args.arena, "-q", "eval", "-t", args.task, "-s", args.solution, "--no-timing", "--shape", shape,
               "--seeds-per-shape", str(args.ncu_seeds or 10)]
        # ncu serializes launches: no stream hold; its injected code creates files and talks to ncu:
        # no seccomp profile in the runner.
        env = dict(os.environ, ARENA_RUNNER_NO_HOLD="1", ARENA_NO_SANDBOX="1")
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        text = open(log).read() if os.path.exists(log) else ""
        rows = [r for r in csv.reader(io.StringIO("\n".join(l for l in text.splitlines() if l.startswith('"'))))]
        if len(rows) < 2:
            sys.exit("ncu profiled no kernel matching '%s' (exit %d):\n%s\n%s" % (args.kernel, p.returncode,
                                                                                  text[-2000:], p.stdout[-2000:]))
        head = rows[0]
        name, metric, value = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
        out = []
        for r in rows[1:]:
            if r[metric] == "gpu__time_duration.sum" and not r[name].startswith("reference"):
                out.append(float(r[value].replace(",", "")))
        return out


def ncu_solo_times(args, shape):
    """Nsight Compute's duration (ns) of each call of the solution, its kernels summed, in a
    runner that is the one process under ncu (build/bench/ncu_solo), --ncu-runs times (each its
    own process, as the judge's two runners a side are), over --placements copies of the region
    on the device plane (the judge's 8 by default). Returns every call's duration and each
    run's JSON."""
    tool = os.path.join(os.path.dirname(args.arena), "bench", "ncu_solo")
    if not os.path.exists(tool):
        sys.exit("%s is not built: it needs the CUDA build (cmake --build build --target ncu_solo)" % tool)
    durations, runs = [], []
    for _ in range(args.ncu_runs):
        cmd = [tool, "--task", args.task, "--solution", args.solution, "--shape", shape,
               "--calls", str(args.ncu_seeds or 16), "--ncu", shutil.which(args.ncu) or args.ncu]
        if args.placements is not None:
            cmd += ["--placements", str(args.placements)]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit("ncu_solo failed (exit %d):\n%s" % (p.returncode, p.stderr[-2000:]))
        run = json.loads(p.stdout)
        durations += run["calls_ns"]
        runs.append({k: run.get(k) for k in ("median_ns", "placements", "placement_medians_ns")})
    return durations, runs


def cmd_ncu(args):
    if not args.shape:
        sys.exit("ncu needs --shape (the same shape for both measurements)")
    result = []
    print("%-28s %12s %12s %9s" % ("shape", "arena median", "ncu median", "diff"))
    for shape in args.shape:
        v, _ = arena_eval(args, ["--shape", shape] + (["--max-time", str(args.max_time)] if args.max_time else []))
        t = v["shapes"][0].get("timing")
        if not t:
            sys.exit("the solution was not timed at %s: %s" % (shape, v["shapes"][0]["message"]))
        runs = None
        if args.in_eval:
            durations = ncu_times(args, shape)
        else:
            durations, runs = ncu_solo_times(args, shape)
        ncu_median = statistics.median(durations)
        diff = t["median_ns"] / ncu_median - 1
        row = {"shape": shape, "arena_median_ns": t["median_ns"], "ncu_median_ns": ncu_median,
               "ncu_launches": len(durations), "relative_difference": diff}
        if runs:
            row["ncu_runs"] = runs
        result.append(row)
        print("%-28s %12s %12s %8.2f%%" % (shape, fmt_ns(t["median_ns"]), fmt_ns(ncu_median), 100 * diff))
        for i, r in enumerate(runs or []):
            spread = [m for m in (r["placement_medians_ns"] or []) if m is not None]
            print("    ncu run %d: median %s over %d placement(s)%s" % (
                i + 1, fmt_ns(r["median_ns"]), r["placements"] or 1,
                ", per placement %s..%s" % (fmt_ns(min(spread)), fmt_ns(max(spread))) if len(spread) > 1 else ""))
    return {"measure": "ncu", "task": args.task, "solution": args.solution, "kernel": args.kernel, "shapes": result}


def cmd_latency(args):
    # Cold: a solution the cache has never seen (the same source plus a unique comment), so its
    # compile is on the path; the task's reference and baseline are cached as they are in any
    # real use. Warm: the same file again.
    arena_eval(args, shape_args(args) + ["--no-timing"])  # the task's files into the cache
    with tempfile.TemporaryDirectory() as tmp:
        fresh = os.path.join(tmp, os.path.basename(args.solution))
        with open(args.solution) as src, open(fresh, "w") as dst:
            dst.write(src.read() + "\n// latency bench %d %f\n" % (os.getpid(), time.time()))
        original, args.solution = args.solution, fresh
        cold, cold_wall = arena_eval(args, shape_args(args))
        # Warm runs back to back, as a user's would be: each may wait for the last one's
        # teardown, which the next eval's timing waits for (seconds.device_wait). --gap S: each
        # after S seconds of rest instead (the last one's contexts gone: one eval on its own).
        warms = []
        for _ in range(max(1, args.warm_runs)):
            time.sleep(args.gap)
            warms.append(arena_eval(args, shape_args(args)))
        args.solution = original
    walls = [w for _, w in warms]
    warm, warm_wall = sorted(warms, key=lambda vw: vw[1])[(len(warms) - 1) // 2]  # the median run
    print("cold (solution not in the compile cache): %.2f s wall, compile %.2f s" % (cold_wall, cold["seconds"]["compile"]))
    label = "warm (solution cached%s):" % (", %g s apart" % args.gap if args.gap else "")
    print("%-41s %.2f s wall%s" % (
        label, warm_wall, "" if len(walls) == 1 else " (median of %d: %s)" % (len(walls), " ".join("%.2f" % w for w in walls))))
    print("where the warm run's seconds went (the verdict's 'seconds'):")
    for k, s in sorted(warm["seconds"].items(), key=lambda kv: -kv[1]):
        print("  %-32s %6.3f s" % (k, s))
    # What the verdict does not count: the process's start and exit, writing the verdict.
    outside = warm_wall - warm["seconds"].get("total", 0) - warm["seconds"].get("setup", 0)
    print("  %-32s %6.3f s" % ("(outside the verdict's seconds)", outside))
    return {"measure": "latency", "task": args.task, "solution": args.solution, "cold_wall_s": cold_wall,
            "warm_wall_s": warm_wall, "warm_walls_s": walls, "gap_s": args.gap, "warm_outside_seconds_s": outside,
            "cold_seconds": cold["seconds"],
            "warm_seconds": warm["seconds"]}


def cmd_aa(args):
    runs = []
    for i in range(args.runs):
        v, wall = arena_eval(args, shape_args(args) + ["--baseline", args.solution, "--seed", str(1000 + i)])
        runs.append(v)
        print("run %d/%d: %.1f s" % (i + 1, args.runs, wall), file=sys.stderr)
    result = []
    print("%-28s %9s %8s %8s %8s %9s %7s %7s  %s" % ("shape", "median", "mean", "sd", "max|d|", "claimed",
                                                    "offset", "covered", "speedups"))
    for k, s in enumerate(runs[0]["shapes"]):
        timings = [r["shapes"][k].get("timing") or {} for r in runs]
        speedups = [t["speedup"] for t in timings if t.get("speedup")]
        if len(speedups) < 2:
            continue
        claimed = [t["speedup_uncertainty"] for t in timings if t.get("speedup_uncertainty") is not None]
        row = {"shape": label(s), "median_ns": statistics.median(t["median_ns"] for t in timings if t),
               "speedups": speedups, "mean": statistics.mean(speedups), "sd": statistics.stdev(speedups),
               "max_abs_deviation": max(abs(x - 1) for x in speedups),
               "claimed_uncertainty_median": statistics.median(claimed) if claimed else None}
        # The runner offset (src/judge/runner_offset.hpp) this row implies: the speedups' sd less
        # the part each eval's own CI claims (a 95 % half-width, so /1.96), per runner (/sqrt 2),
        # in ns. With the judge's own offset in the claimed figure, this is what remains unclaimed.
        within = (row["claimed_uncertainty_median"] or 0) / 1.96
        row["offset_sd_ns"] = (max(0.0, row["sd"] ** 2 - within ** 2) ** 0.5) * row["median_ns"] / 2 ** 0.5
        row["covered"] = sum(1 for t in timings if t.get("speedup") and t.get("speedup_uncertainty") is not None
                             and abs(math.log(t["speedup"])) <= t["speedup_uncertainty"])
        result.append(row)
        print("%-28s %9s %8.4f %7.2f%% %7.2f%% %8.2f%% %7.0f %5d/%d  %s" % (
            row["shape"], fmt_ns(row["median_ns"]), row["mean"], 100 * row["sd"], 100 * row["max_abs_deviation"],
            100 * (row["claimed_uncertainty_median"] or 0), row["offset_sd_ns"], row["covered"], len(speedups),
            " ".join("%.3f" % x for x in speedups)))
    return {"measure": "aa", "task": args.task, "solution": args.solution, "runs": args.runs, "shapes": result}


def cmd_window(args):
    probe = os.path.join(os.path.dirname(args.arena), "bench", "event_window")
    if not os.path.exists(probe):
        sys.exit("%s is not built: it needs the CUDA build (cmake --build build --target event_window)" % probe)
    def table(cmd, env=None):
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        if p.returncode != 0:
            sys.exit("%s failed (exit %d):\n%s" % (cmd[0], p.returncode, p.stderr[-2000:]))
        return p.stdout
    rows = list(csv.DictReader(io.StringIO(table([probe]))))
    ncu = shutil.which(args.ncu) or args.ncu
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "ncu.csv")
        table([ncu, "--clock-control", "none", "--cache-control", "all", "-k", "regex:probe_",
               "--metrics", "gpu__time_duration.sum", "--csv", "--print-units", "base", "--log-file", log,
               probe, "--no-hold", "--reps", "10"])
        text = open(log).read()
    ncu_rows = [r for r in csv.reader(io.StringIO("\n".join(l for l in text.splitlines() if l.startswith('"'))))]
    head = ncu_rows[0]
    value = head.index("Metric Value")
    durations = [float(r[value].replace(",", "")) for r in ncu_rows[1:]]
    # The probes run in order, 10 launches each; "window_only" launches nothing.
    launching = sum(1 for r in rows if r["probe"] != "window_only")
    if len(durations) != 10 * launching:
        sys.exit("ncu profiled %d launches, expected %d" % (len(durations), 10 * launching))
    # --cupti: CUPTI's kernel records in a third run (its tracing lengthens the windows a little:
    # its own windows are the reference for its columns, not the plain run's).
    traced = {}
    if args.cupti:
        for r in csv.DictReader(io.StringIO(table([probe, "--cupti"]))):
            traced[r["probe"]] = r
    result = []
    print("%-20s %12s %12s %12s %9s" % ("probe", "event window", "ncu", "difference", "relative") +
          ("  %12s %14s" % ("cupti", "window-cupti") if args.cupti else ""))
    k = 0  # the launching probe's index among the launching ones
    for r in rows:
        window = float(r["median_ns"])
        row = {"probe": r["probe"], "window_median_ns": window, "window_p10_ns": float(r["p10_ns"]),
               "window_p90_ns": float(r["p90_ns"])}
        if r["probe"] != "window_only":
            kernel = statistics.median(durations[10 * k:10 * k + 10])
            k += 1
            row.update({"ncu_median_ns": kernel, "difference_ns": window - kernel,
                        "relative_difference": window / kernel - 1})
            line = "%-20s %12s %12s %12s %8.1f%%" % (r["probe"], fmt_ns(window), fmt_ns(kernel),
                                                     fmt_ns(window - kernel), 100 * (window / kernel - 1))
            t = traced.get(r["probe"])
            if t is not None:
                row["cupti"] = {key: float(t[key]) for key in ("median_ns", "cupti_median_ns",
                                "window_less_cupti_median_ns") if key in t}
                c = row["cupti"]
                line += "  %12s %14s" % (fmt_ns(c.get("cupti_median_ns", 0)),
                                         fmt_ns(c.get("window_less_cupti_median_ns", 0)))
            print(line)
        else:
            print("%-20s %12s" % (r["probe"], fmt_ns(window)))
        result.append(row)
    return {"measure": "window", "probes": result}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("measure", choices=["repeat", "ncu", "latency", "aa", "window"])
    ap.add_argument("--task", help="every measure but window")
    ap.add_argument("--solution", help="every measure but window")
    ap.add_argument("--shape", action="append", help="as arena eval --shape (repeatable); default: the visible shapes")
    ap.add_argument("--runs", type=int, default=5, help="repeat, aa: separate arena eval runs")
    ap.add_argument("--gap", type=float, default=0.0,
                    help="latency: seconds of rest before each warm run (default 0: back to back)")
    ap.add_argument("--warm-runs", type=int, default=1,
                    help="latency: warm evals back to back (the median run is reported)")
    ap.add_argument("--kernel", default=".*", help="ncu: regex of the solution's kernel names (give it: with "
                    "inputs drawn on the device, '.*' also matches the judge's helper kernels)")
    ap.add_argument("--ncu-seeds", type=int,
                    help="ncu: calls profiled in each runner of their own (default 16: twice over the 8 "
                         "placements); with --in-eval input seeds of the profiled eval (default 10), so ncu "
                         "sees that many launches and more")
    ap.add_argument("--ncu-runs", type=int, default=2,
                    help="ncu: runners of their own under ncu, one after another (default 2, as the judge's "
                         "runners a side); their calls' median is the reading")
    ap.add_argument("--placements", type=int,
                    help="ncu: copies of the region each ncu runner's calls move over (ncu_solo's default: "
                         "8, the judge's; 0: the runner's own buffers, one place)")
    ap.add_argument("--in-eval", action="store_true",
                    help="ncu: profile the arena eval itself (every process instrumented; --kernel picks the "
                         "solution's kernels) instead of a runner of its own")
    ap.add_argument("--max-time", type=float, help="passed to arena eval")
    ap.add_argument("--warm", action="store_true", help="passed to arena eval (caches not evicted)")
    ap.add_argument("--cupti", action="store_true",
                    help="window: also run the probes with CUPTI's kernel records (event_window --cupti): "
                         "per probe the kernel's recorded duration and the window less it")
    ap.add_argument("--arena", default=os.path.join(os.path.dirname(__file__), "..", "build", "arena"))
    ap.add_argument("--ncu", default="ncu")
    ap.add_argument("--json", help="also write the result as JSON here")
    args = ap.parse_args()
    if args.measure != "window" and not (args.task and args.solution):
        ap.error("%s needs --task and --solution" % args.measure)
    result = {"repeat": cmd_repeat, "ncu": cmd_ncu, "latency": cmd_latency, "aa": cmd_aa,
              "window": cmd_window}[args.measure](args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
