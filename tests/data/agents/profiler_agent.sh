#!/bin/sh
# A stand-in agent for the GPU test of `arena-tool profile` (tests/gpu/cuda_judge_test.cpp):
# profiles the starter (one round), then judges it (one round). $1: the prompt file (unread).
set -u
arena-tool profile
echo "profiler_agent: profile: exit code $?"
arena-tool eval
echo "profiler_agent: eval: exit code $?"
