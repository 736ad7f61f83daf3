#!/usr/bin/env bash
# Builds the giflib shim the GIF decode speed benchmark loads at run time (dlopen).
# Installs libgif-dev with apt-get if its header is missing; prints the path of the library.
# Usage: Scripts/build-giflib-shim.sh   (from anywhere; output in <package>/.build-giflib/)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
output_dir="$root/.build-giflib"
output="$output_dir/libgifshim.so"

if [ ! -f /usr/include/gif_lib.h ]; then
    echo "libgif-dev not found; installing it with apt-get" >&2
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y --no-install-recommends libgif-dev
fi

mkdir -p "$output_dir"
gcc -O2 -fPIC -shared -Wall -Wextra -o "$output" "$root/Scripts/giflib-shim/gifcompose.c" -lgif
echo "$output"
