#!/usr/bin/env python3
"""A/B of one environment variable over separate `arena eval` runs: the arms alternate run by run
(so drift of the machine falls on every arm alike), and per arm and shape it prints the run
medians of the candidate, their coefficient of variation (CV), and the mean and spread of the
speedups (with --baseline the same file: an A/A). Python 3 standard library only.

  bench/env_ab.py --runs 5 --var ARENA_RUNNER_CPUS --value "" --value local -- \\
      -t cuda/vector_add_f32 -s tasks/cuda/vector_add_f32/starter.cu \\
      --baseline tasks/cuda/vector_add_f32/starter.cu --shape n=1000003

An empty --value runs the arm with the variable set to "" (for the judge's variables: unset).
Everything after `--` goes to `arena eval`. --json FILE writes every run's figures.
"""
import argparse
import json
import os
import statistics as st
import subprocess
import sys
import tempfile


def main():
    argv = sys.argv[1:]
    eval_args = argv[argv.index("--") + 1:] if "--" in argv else []
    own = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arena", default="build/arena")
    ap.add_argument("--runs", type=int, default=5, help="runs per arm")
    ap.add_argument("--var", required=True, help="the environment variable")
    ap.add_argument("--value", action="append", required=True, help="one arm (repeat for each)")
    ap.add_argument("--json")
    args = ap.parse_args(own)
    if not eval_args:
        sys.exit("env_ab.py: give the arena eval arguments after --")
    runs = {v: {} for v in args.value}
    for i in range(args.runs):
        for v in args.value:
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "verdict.json")
                p = subprocess.run([args.arena, "-q", "eval", "--json", out] + eval_args,
                                   env=dict(os.environ, **{args.var: v}),
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                if not os.path.exists(out):
                    sys.exit("%s=%s: arena eval wrote no verdict (exit %d):\n%s" % (args.var, v, p.returncode, p.stdout[-2000:]))
                with open(out) as f:
                    verdict = json.load(f)
            for s in verdict["shapes"]:
                t = s.get("timing") or {}
                key = " ".join("%s=%s" % kv for kv in sorted(s["params"].items()))
                runs[v].setdefault(key, []).append({"median_ns": t.get("median_ns"), "speedup": t.get("speedup")})
            print("run %d/%d %s=%r done" % (i + 1, args.runs, args.var, v), file=sys.stderr)
    for v in args.value:
        for key, rows in runs[v].items():
            m = [r["median_ns"] for r in rows if r["median_ns"]]
            sp = [r["speedup"] for r in rows if r["speedup"]]
            if not m:
                print("%s=%r %s: not timed" % (args.var, v, key))
                continue
            cv = st.pstdev(m) / st.mean(m) if len(m) > 1 else 0.0
            line = "%s=%r %s: median %.0f ns CV %.2f%%" % (args.var, v, key, st.median(m), 100 * cv)
            if len(sp) > 1:
                line += "  speedup mean %.4f sd %.2f%%" % (st.mean(sp), 100 * st.pstdev(sp))
            print(line + "  runs " + " ".join("%.0f" % x for x in m))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"var": args.var, "runs": runs}, f, indent=1)


if __name__ == "__main__":
    main()
