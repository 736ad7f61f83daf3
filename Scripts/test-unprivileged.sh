#!/usr/bin/env bash
# Runs the tests that only mean something without root's privileges (root reads every file
# whatever its mode, so as root they skip) as the unprivileged user `nobody`, and fails unless
# each one ran and passed: a skip counts as a failure here.
#
#   Scripts/test-unprivileged.sh      # after `swift build --build-tests`
#
# The test binary is copied into a fresh directory `nobody` can read, so the checkout's own
# permissions (it may live under /root) are left alone; the tests' temporary files go to a
# directory `nobody` owns. Run as a normal user, the tests simply run as that user.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

tests=(
  BadInputTests/test_unreadableFile_isUnreadable
  ConfinedFileOpenerTests/test_folderWithSearchPermissionOnly_isWalked
  DiskCacheFaultTests/test_readOnlyFolder_servesReads_andRefusesWritesWithCountedErrors
  DiskCacheFaultTests/test_folderThatCannotBeCreated_throwsDiskCacheUnavailable
)
binary="$(swift build --show-bin-path)/WeakImageStorePackageTests.xctest"
[ -x "$binary" ] || { echo "no test binary at $binary: run swift build --build-tests first" >&2; exit 1; }

sandbox="$(mktemp -d)"
trap 'rm -rf "$sandbox"' EXIT
chmod 755 "$sandbox"
cp "$binary" "$sandbox/"
mkdir "$sandbox/tmp"
log="$sandbox/log"
selection="$(printf 'WeakImageStoreTests.%s,' "${tests[@]}")"

if [ "$(id -u)" = 0 ]; then
  chown nobody:nogroup "$sandbox/tmp"
  run=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  echo "running as nobody: ${tests[*]}"
else
  run=()
  echo "running as $(id -un): ${tests[*]}"
fi
status=0
"${run[@]}" env -i PATH=/usr/bin:/bin HOME="$sandbox/tmp" TMPDIR="$sandbox/tmp" \
  "$sandbox/WeakImageStorePackageTests.xctest" "${selection%,}" >"$log" 2>&1 || status=$?
cat "$log"
[ "$status" = 0 ] || { echo "the unprivileged tests failed (exit $status)" >&2; exit 1; }
for test in "${tests[@]}"; do
  name="${test/\//.}"
  grep -q "^Test Case '$name' passed" "$log" || { echo "$name did not run and pass (skipped?)" >&2; exit 1; }
done
echo "all ${#tests[@]} ran unprivileged and passed"
