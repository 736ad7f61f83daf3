#!/usr/bin/env bash
# Builds the libwebp shim the decode speed benchmark loads at run time: see build-shim.sh.
exec "$(dirname "${BASH_SOURCE[0]}")/build-shim.sh" webp
