#!/usr/bin/env bash
# Builds the DocC documentation of the WeakImageStore library with the toolchain's own `docc` (no
# package plugin: the package has no dependencies) and fails on any DocC warning, such as a
# ``symbol`` link that does not resolve.
#
#   Scripts/build-docs.sh [OUTPUT]   default OUTPUT: .build-docs/WeakImageStore.doccarchive
#
# The symbol graph comes from a debug build of the library in its own scratch folder
# (.build-docs, git-ignored), so it never disturbs the everyday .build, and includes the codecs
# module the library re-exports (ImageCodecs). It is the Linux build's graph:
# the Apple-only adapters (Sources/WeakImageStore/Platform) are not in it, and the articles name
# them in code voice rather than as links.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scratch=.build-docs
output=${1:-$scratch/WeakImageStore.doccarchive}
symbol_graphs=$scratch/symbol-graphs
log=$scratch/docc.log

swift build --scratch-path "$scratch" --target WeakImageStore
# What `swift package dump-symbol-graph` does, for the library alone (that command also tries
# the test targets and fails on them); it extracts afresh even when the build was up to date.
rm -rf "$symbol_graphs"
mkdir -p "$symbol_graphs"
swift-symbolgraph-extract -module-name WeakImageStore \
  -target "$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -1)" \
  -I "$(swift build --scratch-path "$scratch" --show-bin-path)/Modules" \
  -experimental-allowed-reexported-modules=ImageCodecs \
  -minimum-access-level public -omit-extension-block-symbols -output-dir "$symbol_graphs"

rm -rf "$output"
docc convert Sources/WeakImageStore/WeakImageStore.docc \
  --additional-symbol-graph-dir "$symbol_graphs" \
  --fallback-display-name WeakImageStore \
  --fallback-bundle-identifier org.weakimagestore.WeakImageStore \
  --output-path "$output" \
  --warnings-as-errors 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

if [ "$status" -ne 0 ] || grep -q -E "(warning|error):" "$log"; then
  echo "DocC reported problems (the documentation builds with zero warnings)" >&2
  exit 1
fi
echo "documentation: $output"
