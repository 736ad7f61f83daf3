#!/usr/bin/env bash
# Installs Debian's libturbojpeg0 (libjpeg-turbo's TurboJPEG API), which the benchmark loads with
# dlopen to compare JPEG decode speed; without it that column says "not measured".
# libjpeg-turbo-progs adds djpeg, handy as a development reference.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
$sudo apt-get update
$sudo apt-get install -y libturbojpeg0 libjpeg-turbo-progs
