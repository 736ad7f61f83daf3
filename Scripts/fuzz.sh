#!/usr/bin/env bash
# Builds a libFuzzer target with AddressSanitizer and runs it.
#
#   Scripts/fuzz.sh png   [seconds]   # the PNG decoder, seeded with PngSuite and Fuzz/seeds/png
#   Scripts/fuzz.sh apng  [seconds]   # APNG frames (lenient, strict, a resumed copy), seeded with the
#                                     # APNG suite and Fuzz/seeds/apng; even-length inputs get their
#                                     # chunks' CRC-32s recomputed
#   Scripts/fuzz.sh jpeg  [seconds]   # the JPEG decoder (full size and scaled), seeded with the
#                                     # JPEG suite and Fuzz/seeds/jpeg
#   Scripts/fuzz.sh gif   [seconds]   # the GIF decoder (every frame, thumbnails, strict against
#                                     # lenient), seeded with Fuzz/seeds/gif
#   Scripts/fuzz.sh gif-diff [seconds] [libFuzzer flags...] # GIFDecoder against giflib (the shim in
#                                      # Scripts/giflib-shim, libgif-dev from apt-get): screen, images,
#                                      # control extensions and index rasters; disagreements crash
#   Scripts/fuzz.sh webp  [seconds]   # the WebP decoder (full size, thumbnail, strict against
#                                     # lenient), seeded with the WebP suite
#   Scripts/fuzz.sh webp-diff [seconds] [libFuzzer flags...] # WebPDecoder against libwebp (the shim in
#                                      # Scripts/libwebp-shim, libwebp-dev from apt-get): lossless
#                                      # stills byte for byte, refusals alike; disagreements crash
#   Scripts/fuzz.sh vp8   [seconds]   # the lossy WebP (VP8) decoder, rows against the one-buffer
#                                     # decode; seeded with the `VP8 ` chunk payloads of the lossy
#                                     # WebP suite, extracted into .build-fuzz/vp8-seeds
#   Scripts/fuzz.sh names [seconds]   # name resolution against a directory with hostile entries
#   Scripts/fuzz.sh http  [seconds]   # HTTP header parsers (Cache-Control, HTTP dates, Content-Range,
#                                     # freshness), the first byte picking one; Fuzz/seeds/http
#   Scripts/fuzz.sh journal [seconds] # the disk cache's journal reader, parsed and opened in a real
#                                     # folder; seeded with Fuzz/seeds/journal (first byte odd: the
#                                     # target repairs the records' checksums)
#   Scripts/fuzz.sh png-diff [seconds] [libFuzzer flags...] # PNGDecoder against libpng (the shim in Scripts/libpng-shim,
#                                      # libpng-dev from apt-get); any disagreement is a crash
#   Scripts/fuzz.sh jpeg-diff [seconds] [libFuzzer flags...] # JPEGDecoder against libjpeg-turbo (the shim in
#                                      # Scripts/libjpeg-shim, libjpeg62-turbo-dev from apt-get), on its
#                                      # C code paths (JSIMD_FORCENONE=1); disagreements are counted in
#                                      # .build-fuzz/jpeg-diff-outcomes.tsv (JPEG_DIFF_OUTCOMES) and the
#                                      # first inputs of each kind saved to Fuzz/artifacts/jpeg-diff-*.jpg;
#                                      # JPEG_DIFF_CRASH_ON_DISAGREEMENT=1 (or =class,...) crashes instead;
#                                      # see the target's header for the other JPEG_DIFF_* variables
#
# The target is compiled together with the sources it tests (one module, so it can reach
# internals) into .build-fuzz/: the decoder targets with Sources/ImageCodecs alone. New corpus entries go to Fuzz/corpus-<target>/ (git-ignored);
# crashes, leaks, timeouts and oversized allocations go to Fuzz/artifacts/ — commit each one to
# Tests/WeakImageStoreTests/Fixtures/fuzz/ with a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${1:?usage: Scripts/fuzz.sh png|apng|png-diff|jpeg|jpeg-diff|gif|gif-diff|webp|webp-diff|vp8|names|http|journal [seconds]}"
seconds="${2:-60}"
case "$target" in
  png)   entry=Fuzz/PNGDecoderFuzzTarget.swift ;;
  apng)  entry=Fuzz/APNGDecoderFuzzTarget.swift ;;
  jpeg)  entry=Fuzz/JPEGDecoderFuzzTarget.swift ;;
  gif)   entry=Fuzz/GIFDecoderFuzzTarget.swift ;;
  vp8)   entry=Fuzz/VP8DecoderFuzzTarget.swift ;;
  names) entry=Fuzz/NameResolutionFuzzTarget.swift ;;
  http)  entry=Fuzz/HTTPHeaderFuzzTarget.swift ;;
  journal) entry=Fuzz/DiskCacheJournalFuzzTarget.swift ;;
  png-diff) entry=Fuzz/PNGDifferentialFuzzTarget.swift ;;
  jpeg-diff) entry=Fuzz/JPEGDifferentialFuzzTarget.swift ;;
  gif-diff) entry=Fuzz/GIFDifferentialFuzzTarget.swift ;;
  webp)  entry=Fuzz/WebPDecoderFuzzTarget.swift ;;
  webp-diff) entry=Fuzz/WebPDifferentialFuzzTarget.swift ;;
  *)     echo "unknown target: $target" >&2; exit 2 ;;
esac

mkdir -p .build-fuzz "Fuzz/corpus-$target" Fuzz/artifacts
binary=".build-fuzz/$target-fuzzer"
extra=()
if [ "$target" = png-diff ]; then
  # libpng itself is not instrumented; the shim is linked in and declared by its header.
  if [ ! -f /usr/include/png.h ]; then
    echo "libpng-dev not found: apt-get install -y libpng-dev" >&2
    exit 1
  fi
  gcc -O2 -g -c Scripts/libpng-shim/pngshim.c -o .build-fuzz/pngshim.o
  extra=(-import-objc-header Scripts/libpng-shim/pngshim.h .build-fuzz/pngshim.o -lpng16 -lz)
fi
if [ "$target" = jpeg-diff ]; then
  # libjpeg itself is not instrumented; the shim is linked in and declared by its header.
  if [ ! -f /usr/include/jpeglib.h ]; then
    echo "libjpeg62-turbo-dev not found: apt-get install -y libjpeg62-turbo-dev" >&2
    exit 1
  fi
  gcc -O2 -g -Wall -Wextra -c Scripts/libjpeg-shim/jpegshim.c -o .build-fuzz/jpegshim.o
  extra=(-import-objc-header Scripts/libjpeg-shim/jpegshim.h .build-fuzz/jpegshim.o -ljpeg)
  # libjpeg-turbo's SIMD inverse DCT overflows on out-of-range coefficients where its C code (which
  # JPEGDecoder follows) does not: compare with the C code paths.
  export JSIMD_FORCENONE=1
fi
if [ "$target" = gif-diff ]; then
  # giflib itself is not instrumented; the shim is linked in and declared by its header.
  if [ ! -f /usr/include/gif_lib.h ]; then
    echo "libgif-dev not found: apt-get install -y libgif-dev" >&2
    exit 1
  fi
  gcc -O2 -g -Wall -Wextra -c Scripts/giflib-shim/gifshim.c -o .build-fuzz/gifshim.o
  extra=(-import-objc-header Scripts/giflib-shim/gifshim.h .build-fuzz/gifshim.o -lgif)
fi
if [ "$target" = webp-diff ]; then
  # libwebp itself is not instrumented; the shim is linked in and declared by its header.
  if [ ! -f /usr/include/webp/decode.h ]; then
    echo "libwebp-dev not found: apt-get install -y libwebp-dev" >&2
    exit 1
  fi
  gcc -O2 -g -Wall -Wextra -c Scripts/libwebp-shim/webpshim.c -o .build-fuzz/webpshim.o
  extra=(-import-objc-header Scripts/libwebp-shim/webpshim.h .build-fuzz/webpshim.o -lwebp)
fi
# The decoder targets compile the codecs alone (they know nothing of the store); the others the
# whole library, as one module without the file that re-exports the codecs' module.
case "$target" in
  png|apng|jpeg|gif|webp|vp8|png-diff|jpeg-diff|gif-diff|webp-diff) sources=$(find Sources/ImageCodecs -name '*.swift' | sort) ;;
  *) sources=$(find Sources/ImageCodecs Sources/WeakImageStore -name '*.swift' ! -name ImageCodecsExport.swift | sort) ;;
esac
# shellcheck disable=SC2086
swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -package-name WeakImageStore \
  -module-name WeakImageStoreFuzz \
  $sources "$entry" "${extra[@]}" -o "$binary"

seeds=("Fuzz/seeds/$target")
if [ "$target" = png-diff ]; then seeds=(Fuzz/seeds/png Fuzz/seeds/png-diff); fi
if [ "$target" = jpeg-diff ]; then seeds=(Fuzz/seeds/jpeg Fuzz/seeds/jpeg-diff); fi
if [ "$target" = gif-diff ]; then seeds=(Fuzz/seeds/gif); fi
if [ "$target" = png ] || [ "$target" = png-diff ]; then
  # Only the suite's .png files: its packed references are not inputs.
  mkdir -p .build-fuzz/png-seeds
  cp Tests/WeakImageStoreTests/Fixtures/pngsuite/*.png .build-fuzz/png-seeds/
  seeds+=(.build-fuzz/png-seeds)
fi
if [ "$target" = apng ]; then seeds+=(Tests/WeakImageStoreTests/Fixtures/apngsuite); fi
if [ "$target" = webp ] || [ "$target" = webp-diff ]; then
  # Only the suite's small .webp files (the 16383-wide one slows every mutation of it).
  mkdir -p .build-fuzz/webp-seeds
  find Tests/WeakImageStoreTests/Fixtures/webpsuite -name '*.webp' -size -8k -exec cp {} .build-fuzz/webp-seeds/ \;
  seeds=(.build-fuzz/webp-seeds)
fi
if [ "$target" = jpeg ] || [ "$target" = jpeg-diff ]; then
  # Only the suite's .jpg files: its packed references are not inputs.
  mkdir -p .build-fuzz/jpeg-seeds
  cp Tests/WeakImageStoreTests/Fixtures/jpegsuite/*.jpg .build-fuzz/jpeg-seeds/
  seeds+=(.build-fuzz/jpeg-seeds)
fi
if [ "$target" = vp8 ]; then
  # The target reads a chunk's payload, not a file: cut the `VP8 ` chunk out of each suite file.
  mkdir -p .build-fuzz/vp8-seeds
  python3 - Tests/WeakImageStoreTests/Fixtures/webpsuite-lossy .build-fuzz/vp8-seeds <<'PY'
import pathlib, struct, sys
source, target = map(pathlib.Path, sys.argv[1:])
for path in sorted(source.glob('*.webp')):
    data, offset = path.read_bytes(), 12
    while offset + 8 <= len(data):
        tag, size = data[offset:offset + 4], struct.unpack('<I', data[offset + 4:offset + 8])[0]
        if tag == b'VP8 ':
            (target / (path.stem + '.vp8')).write_bytes(data[offset + 8:offset + 8 + size])
            break
        offset += 8 + size + (size & 1)
PY
  seeds=(.build-fuzz/vp8-seeds)
fi

# -malloc_limit_mb flags any single allocation above 256 MiB: the decoder's limits must stop
# hostile dimensions before they allocate. -timeout flags inputs slower than 10 s (hangs).
# The Swift runtime's backtracer would hide the sanitizer's report.
export SWIFT_BACKTRACE=enable=no
exec "$binary" "Fuzz/corpus-$target" "${seeds[@]}" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 \
  -artifact_prefix=Fuzz/artifacts/ -print_final_stats=1 "${@:3}"
