#!/usr/bin/env bash
# Validates .github/workflows against GitHub's workflow schema (the copy check-jsonschema ships,
# from PyPI; no network needed once installed). Rule 16 checks what the workflows say; this
# checks that GitHub can read them. (actionlint would check more, but PyPI has it only as a
# source package that downloads its binary from GitHub at install time.)
set -euo pipefail
cd "$(dirname "$0")/../.."
version=0.39.0
tool="${TMPDIR:-/tmp}/check-jsonschema-$version"
if [ ! -x "$tool/bin/check-jsonschema" ]; then
  python3 -m venv "$tool"
  "$tool/bin/pip" install -q --disable-pip-version-check "check-jsonschema==$version"
fi
echo "== workflows: GitHub's schema (check-jsonschema $version)"
"$tool/bin/check-jsonschema" --builtin-schema vendor.github-workflows .github/workflows/*.yml
