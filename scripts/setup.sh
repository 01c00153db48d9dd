#!/usr/bin/env bash
# Installs what KernelArena needs to build and test on Debian/Ubuntu. Idempotent: installs only
# what is missing. Called by the Makefile; safe to run by hand.
set -euo pipefail

# bubblewrap confines agents (arena run); libcurl talks to OpenAI-compatible endpoints (agent llm);
# ccache makes the second build tree (ASan) cheaper.
packages=(g++ cmake make libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libgtest-dev bubblewrap
          libcurl4-openssl-dev ccache)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
