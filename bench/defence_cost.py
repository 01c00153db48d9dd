#!/usr/bin/env python3
"""What the integrity defences cost (issue 6): the same solution judged with every defence on,
with the runner's seccomp profile off (ARENA_NO_SANDBOX=1), and with fresh inputs per timed call
off (a copy of the task without its `equivariant` line, so timed calls repeat their inputs).
Per configuration: wall seconds of `arena eval`, the verdict's seconds.timing and seconds.total,
and each shape's median; R runs each, interleaved (on, no-sandbox, repeated, on, ...), medians
reported. Python 3 standard library only; prints a table and writes JSON with --json.

  bench/defence_cost.py --task cuda/vector_add_f32 --solution tasks/cuda/vector_add_f32/starter.cu
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def task_copy_without_fresh_inputs(task, tmp):
    """tasks/<backend>/<name> copied under tmp with the equivariant line removed."""
    backend, name = task.split("/")
    src = os.path.join(ROOT, "tasks", backend, name)
    dst = os.path.join(tmp, "tasks", backend, name)
    shutil.copytree(src, dst)
    path = os.path.join(dst, "task.yaml")
    with open(path) as f:
        text = f.read()
    # Relative file references (../../cpu/...) must still resolve: point them at the repo.
    text = re.sub(r"^equivariant:.*\n", "", text, flags=re.M)
    text = re.sub(r"(: )(\.\./\.\./[^\s#]+)", lambda m: m.group(1) + os.path.normpath(os.path.join(src, m.group(2))), text)
    with open(path, "w") as f:
        f.write(text)
    return os.path.join(tmp, "tasks")


def run(args, config, tasks_dir):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "v.json")
        cmd = [args.arena, "-q"] + (["--tasks-dir", tasks_dir] if config == "repeated" else [])
        cmd += ["eval", "-t", args.task, "-s", args.solution, "--seed", "7", "--json", out]
        for s in args.shape or []:
            cmd += ["--shape", s]
        if args.max_time:
            cmd += ["--max-time", str(args.max_time)]
        env = dict(os.environ)
        if config == "no_sandbox":
            env["ARENA_NO_SANDBOX"] = "1"
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        wall = time.monotonic() - t0
        if not os.path.exists(out):
            sys.exit("arena eval wrote no verdict (exit %d):\n%s" % (p.returncode, p.stdout[-3000:]))
        v = json.load(open(out))
    medians = {}
    for s in v["shapes"]:
        lab = " ".join("%s=%s" % kv for kv in sorted(s["params"].items()))
        medians[lab] = (s.get("timing") or {}).get("median_ns")
    t = v["shapes"][0].get("timing") or {}
    return {"wall_s": wall, "timing_s": v["seconds"].get("timing", 0), "total_s": v["seconds"].get("total", 0),
            "medians_ns": medians, "inputs_per_call": t.get("inputs_per_call"),
            "sandbox": v.get("sandbox"), "exit_code": p.returncode}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arena", default=os.path.join(ROOT, "build", "arena"))
    ap.add_argument("--task", required=True)
    ap.add_argument("--solution", required=True)
    ap.add_argument("--shape", action="append")
    ap.add_argument("--max-time", type=float, default=0.5)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args()
    configs = ["all_on", "no_sandbox", "repeated"]
    with tempfile.TemporaryDirectory() as tmp:
        tasks_dir = task_copy_without_fresh_inputs(args.task, tmp)
        runs = {c: [] for c in configs}
        for _ in range(args.runs):
            for c in configs:
                runs[c].append(run(args, c, tasks_dir))
    result = {"task": args.task, "solution": args.solution, "runs": runs, "summary": {}}
    print("%-11s %8s %9s %8s  %s" % ("config", "wall s", "timing s", "total s", "median per shape (ns)"))
    for c in configs:
        r = runs[c]
        summ = {k: statistics.median(x[k] for x in r) for k in ("wall_s", "timing_s", "total_s")}
        shapes = r[0]["medians_ns"].keys()
        summ["medians_ns"] = {s: statistics.median(x["medians_ns"][s] or 0 for x in r) for s in shapes}
        summ["inputs_per_call"] = r[0]["inputs_per_call"]
        summ["sandbox"] = r[0]["sandbox"]
        result["summary"][c] = summ
        print("%-11s %8.2f %9.2f %8.2f  %s" % (c, summ["wall_s"], summ["timing_s"], summ["total_s"],
                                             "  ".join("%s: %.0f" % kv for kv in summ["medians_ns"].items())))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
