#!/usr/bin/env bash
# Install the Debian packages the test suite needs, only those missing.
# Sessions and CI run as root; elsewhere, say what to install and stop.
set -euo pipefail

# command -> Debian package
declare -A NEED=(
  [pdftoppm]=poppler-utils
  [pdftotext]=poppler-utils
  [/usr/bin/chromium]=chromium  # the browser tests launch this very file
  [node]=nodejs  # node --test runs the web table's unit tests (tests/js/)
)

missing=()
for cmd in "${!NEED[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${NEED[$cmd]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: the tests need these Debian packages: ${missing[*]}" >&2
  echo "system-deps: install them (as root: apt-get update && apt-get install -y ${missing[*]})" >&2
  exit 1
fi
echo "system-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
