#!/bin/sh
# A nosy agent (tests/integration/agent_sandbox_test.cpp): looks for what its sandbox hides — the
# episode's records, other episodes, the runs and tasks directories, $HOME, the GPU device nodes —
# writes what it saw to seen.txt in its workspace, one "what: seen" line each, then takes a round.
# $SNOOP_TASKS_DIR: the run's tasks directory (the test sets it).
see() { printf '%s: %s\n' "$1" "$(ls -A "$2" 2>&1 | tr '\n' ' ')"; }
{
  see episode ..
  see episodes ../..
  see run ../../..
  see runs ../../../..
  see tasks "$SNOOP_TASKS_DIR"
  see home "$HOME"
  see dev /dev
  printf 'task.yaml: %s\n' "$(head -n 1 "$SNOOP_TASKS_DIR/cpu/vector_add_f32/task.yaml" 2>&1)"
  printf 'run.yaml: %s\n' "$(head -n 1 ../../../run.yaml 2>&1)"
  printf 'secret: %s\n' "$(cat "$HOME/secret.txt" 2>&1)"
} > seen.txt
arena-tool eval
