#!/usr/bin/env bash
# Builds one of the C shims the decode speed benchmark loads at run time with dlopen, so that the
# package never links against the libraries it measures itself against. Installs the library's
# development package with apt-get if its header is missing; prints the path of the shim.
# Usage: Scripts/build-shim.sh png|gif|webp   (from anywhere; output in <package>/.build-lib<name>/)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:?usage: Scripts/build-shim.sh png|gif|webp}" in
  png)  header=/usr/include/png.h;         package=libpng-dev;  source=libpng-shim/pngshim.c;     libs=(-lpng16 -lz); name=png ;;
  gif)  header=/usr/include/gif_lib.h;     package=libgif-dev;  source=giflib-shim/gifcompose.c;  libs=(-lgif);       name=gif ;;
  webp) header=/usr/include/webp/decode.h; package=libwebp-dev; source=libwebp-shim/webpbench.c;  libs=(-lwebp);      name=webp ;;
  *) echo "unknown shim: $1 (png, gif or webp)" >&2; exit 2 ;;
esac
folder=$([ "$name" = gif ] && echo giflib || echo "lib$name")
output_dir="$root/.build-$folder"
output="$output_dir/lib${name}shim.so"

if [ ! -f "$header" ]; then
    echo "$package not found; installing it with apt-get" >&2
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y --no-install-recommends "$package"
fi

mkdir -p "$output_dir"
gcc -O2 -fPIC -shared -Wall -Wextra -o "$output" "$root/Scripts/$source" "${libs[@]}"
echo "$output"
