#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine, then run every test.
# Used by README ("run the tests") and by .ci/run. Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "== installing Debian's Chromium for the browser tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "!! /usr/bin/chromium is missing and cannot be installed here (needs root + apt-get); browser tests will skip outside CI" >&2
  fi
fi

if ! command -v java >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "== installing Debian's Java 17 for the Spark engine tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null
  else
    echo "!! java is missing and cannot be installed here (needs root + apt-get); Spark tests will skip outside CI" >&2
  fi
fi

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "== installing Debian's nginx-light for the class deployment's configuration test (deploy/)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
  else
    echo "!! nginx is missing and cannot be installed here (needs root + apt-get); its configuration test will skip" >&2
  fi
fi

echo "== installing the project with its test, spark and fast extras"
python3 -m pip install -q --disable-pip-version-check -e ".[test,spark,fast]"

echo "== format and lint (ruff format --check, ruff check; settings in pyproject.toml)"
python3 -m ruff format --check .
python3 -m ruff check .

echo "== type check (mypy on dpcore; settings in pyproject.toml)"
python3 -m mypy

echo "== running the tests"
# two workers (pytest-xdist): CI has two cores, and the suite takes about half as long as in one process;
# DPCORE_TEST_WORKERS=0 runs it in this process (a debugger, or -x on one file)
exec python3 -m pytest -n "${DPCORE_TEST_WORKERS:-2}" --dist load "$@"
