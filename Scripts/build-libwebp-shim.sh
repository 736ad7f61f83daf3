#!/usr/bin/env bash
# Builds the libwebp shim the WebP decode speed benchmark loads at run time (dlopen).
# Installs libwebp-dev with apt-get if its headers are missing; prints the path of the library.
# Usage: Scripts/build-libwebp-shim.sh   (from anywhere; output in <package>/.build-libwebp/)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
output_dir="$root/.build-libwebp"
output="$output_dir/libwebpshim.so"

if [ ! -f /usr/include/webp/decode.h ]; then
    echo "libwebp-dev not found; installing it with apt-get" >&2
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y --no-install-recommends libwebp-dev
fi

mkdir -p "$output_dir"
gcc -O2 -fPIC -shared -Wall -Wextra -o "$output" "$root/Scripts/libwebp-shim/webpbench.c" -lwebp
echo "$output"
