#!/usr/bin/env bash
# Type-checks the library (Sources/ImageCodecs, then Sources/WeakImageStore) and the examples (Examples/) for iOS and macOS
# with the Linux Swift toolchain against Apple's SDK interfaces, in Swift 6 mode. Nothing is
# built, linked or run: this proves the Apple-only code compiles, not that it works.
#
#   Scripts/typecheck-apple.sh            check both platforms
#   Scripts/typecheck-apple.sh --ios      only iOS (also --macos)
#
# Environment: APPLESDK_ROOT, where the SDKs were set up (default /tmp/applesdk, which must hold
# iPhoneOS17.4.sdk, MacOSX12.0-grafted.sdk and resource/); SWIFTC (default: swiftc on PATH).
# Without the SDKs it prints how to set them up and "skipped", and exits 0: CI machines have none.
# Exit status: 1 on any error or warning, else 0. Nothing is written inside the repository.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
SDK_ROOT=${APPLESDK_ROOT:-/tmp/applesdk}
SWIFTC=${SWIFTC:-swiftc}
IOS_SDK=$SDK_ROOT/iPhoneOS17.4.sdk
MACOS_SDK=$SDK_ROOT/MacOSX12.0-grafted.sdk

platforms=()
for argument in "$@"; do
  case $argument in
    --ios) platforms+=(ios) ;;
    --macos) platforms+=(macos) ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "unknown argument: $argument (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#platforms[@]} -gt 0 ] || platforms=(ios macos)

if [ ! -d "$IOS_SDK" ] || [ ! -d "$MACOS_SDK" ] || [ ! -d "$SDK_ROOT/resource" ]; then
  cat <<HOW
No Apple SDK interfaces at $SDK_ROOT (set APPLESDK_ROOT to use another folder). To set them up:
  1. fetch github:danpashin/sdks (iOS 17.4), github:theos/sdks (iOS 15.5, for the macOS Swift
     overlays) and github:hexops-graveyard/sdk-macos-12.0 into one folder, MIRROR;
  2. APPLESDK_ROOT=$SDK_ROOT MIRROR=... ../shared/apple-sdk/setup.sh  (see ../shared/apple-sdk/README.md).
Apple's SDK files may not be redistributed: never copy them into this repository.
HOW
  echo "skipped: Apple type-check (no SDK at $SDK_ROOT)"
  exit 0
fi

codec_sources=()
while IFS= read -r file; do codec_sources+=("$file"); done < <(find Sources/ImageCodecs -name '*.swift' | sort)
library_sources=()
while IFS= read -r file; do library_sources+=("$file"); done < <(find Sources/WeakImageStore -name '*.swift' | sort)
example_sources=()
if [ -d Examples ]; then
  while IFS= read -r file; do example_sources+=("$file"); done < <(find Examples -name '*.swift' | sort)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Compiler output minus the empty 'PATH: 0:' notes clang attaches to some module-map diagnostics.
compile() {
  "$SWIFTC" "$@" 2>&1 | grep -v -E '^[^ ]+: 0:$'
  return "${PIPESTATUS[0]}"
}

problems=0
for platform in "${platforms[@]}"; do
  case $platform in
    ios) flags=(-target arm64-apple-ios15.0 -sdk "$IOS_SDK") library_extra=() codec_extra=() ;;
    # The macOS SDK's standard library and overlays are Swift 5.6's: it has no _StringProcessing
    # module, and the stand-ins for newer always-inlined API are added to the library's check only.
    macos) flags=(-target arm64-apple-macos12.0 -sdk "$MACOS_SDK"
                  -Xfrontend -disable-implicit-string-processing-module-import)
           library_extra=(Scripts/AppleTypecheck/Swift56StandardLibraryGaps.swift)
           codec_extra=(Scripts/AppleTypecheck/Swift56SendableGaps.swift) ;;
  esac
  flags+=(-swift-version 6 -parse-as-library -continue-building-after-errors -resource-dir "$SDK_ROOT/resource"
          -module-cache-path "$SDK_ROOT/module-cache/$platform")
  mkdir -p "$work/$platform"
  log=$work/$platform.log

  # The library imports the codecs' module (and reaches its `package` symbols): it is checked
  # first, then emitted from its declarations for the library's check.
  echo "== $platform: Sources/ImageCodecs (${#codec_sources[@]} files)"
  compile "${flags[@]}" -typecheck -module-name ImageCodecs -package-name WeakImageStore \
    "${codec_sources[@]}" ${library_extra[@]+"${library_extra[@]}"} ${codec_extra[@]+"${codec_extra[@]}"} | tee "$log"
  library_status=${PIPESTATUS[0]}
  if [ "$library_status" -eq 0 ]; then
    compile "${flags[@]}" -emit-module -module-name ImageCodecs -package-name WeakImageStore \
      -Xfrontend -experimental-skip-non-inlinable-function-bodies \
      -emit-module-path "$work/$platform/ImageCodecs.swiftmodule" \
      "${codec_sources[@]}" ${library_extra[@]+"${library_extra[@]}"} ${codec_extra[@]+"${codec_extra[@]}"} | tee -a "$log"
    library_status=${PIPESTATUS[0]}
  fi
  echo "== $platform: Sources/WeakImageStore (${#library_sources[@]} files)"
  if [ "$library_status" -eq 0 ]; then
    compile "${flags[@]}" -typecheck -module-name WeakImageStore -package-name WeakImageStore -I "$work/$platform" \
      "${library_sources[@]}" ${library_extra[@]+"${library_extra[@]}"} | tee -a "$log"
    library_status=${PIPESTATUS[0]}
  fi
  # The examples import the library, so they need its module. It is emitted from declarations
  # only (bodies were checked just above): lowering typed-throws bodies against this SDK's Swift
  # 5.10 standard library crashes this compiler, and no code is generated anyway.
  if [ "$library_status" -eq 0 ] && [ ${#example_sources[@]} -gt 0 ]; then
    compile "${flags[@]}" -emit-module -module-name WeakImageStore -package-name WeakImageStore -I "$work/$platform" \
      -Xfrontend -experimental-skip-non-inlinable-function-bodies \
      -emit-module-path "$work/$platform/WeakImageStore.swiftmodule" \
      "${library_sources[@]}" ${library_extra[@]+"${library_extra[@]}"} | tee -a "$log"
    library_status=${PIPESTATUS[0]}
  fi

  if [ ${#example_sources[@]} -gt 0 ]; then
    if [ "$library_status" -eq 0 ]; then
      echo "== $platform: Examples (${#example_sources[@]} files)"
      compile "${flags[@]}" -typecheck -module-name Examples -I "$work/$platform" \
        "${example_sources[@]}" | tee -a "$log"
      examples_status=${PIPESTATUS[0]}
    else
      echo "== $platform: Examples not checked (the library has errors)" | tee -a "$log"
      examples_status=1
    fi
  else
    examples_status=0
  fi

  # Every diagnostic, located or not, but not the quoted source lines ("12 | ...") under them.
  diagnostics=$(grep -v -E '^ *[0-9]* *[|+] ' "$log")
  errors=$(grep -c -E '(^|: )error: ' <<<"$diagnostics")
  warnings=$(grep -c -E '(^|: )warning: ' <<<"$diagnostics")
  echo "-- $platform: $errors errors, $warnings warnings"
  if [ "$library_status" -ne 0 ] || [ "$examples_status" -ne 0 ] || [ "$errors" -ne 0 ] || [ "$warnings" -ne 0 ]; then
    problems=1
  fi
done

if [ "$problems" -ne 0 ]; then
  echo "Apple type-check FAILED (the project type-checks with zero errors and zero warnings)" >&2
  exit 1
fi
echo "Apple type-check passed: ${platforms[*]}, 0 errors, 0 warnings"
