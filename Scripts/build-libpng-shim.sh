#!/usr/bin/env bash
# Builds the libpng shim the decode speed benchmark loads at run time (dlopen).
# Installs libpng-dev with apt-get if its headers are missing; prints the path of the library.
# Usage: Scripts/build-libpng-shim.sh   (from anywhere; output in <package>/.build-libpng/)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
output_dir="$root/.build-libpng"
output="$output_dir/libpngshim.so"

if ! pkg-config --exists libpng16 2>/dev/null && [ ! -f /usr/include/png.h ]; then
    echo "libpng-dev not found; installing it with apt-get" >&2
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y --no-install-recommends libpng-dev
fi

mkdir -p "$output_dir"
gcc -O2 -fPIC -shared -o "$output" "$root/Scripts/libpng-shim/pngshim.c" -lpng16 -lz
echo "$output"
