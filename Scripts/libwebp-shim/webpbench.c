/* libwebp as the WebP decode speed benchmark's yardstick (Sources/Benchmarks/DecodeSpeed, loaded
 * with dlopen; Scripts/build-libwebp-shim.sh builds it): WebPDecodeRGBAInto, libwebp's own decode
 * to straight RGBA with its default options (fancy upsampling), and its encoders to make inputs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/encode.h>

/* Decodes a WebP into `out` (capacity bytes, 4 bytes a pixel). Returns 0, or -1 if libwebp
 * rejects the file or it does not fit. */
int webpbench_decode(const uint8_t *data, size_t size, uint8_t *out, size_t capacity, int *width, int *height) {
    if (!WebPGetInfo(data, size, width, height)) return -1;
    size_t stride = (size_t)*width * 4;
    if (stride * (size_t)*height > capacity) return -1;
    return WebPDecodeRGBAInto(data, size, out, capacity, (int)stride) ? 0 : -1;
}

/* Encodes straight RGBA as a lossy WebP at `quality` (0...100), or lossless when quality < 0.
 * Returns the size and sets *output (free it with webpbench_free), or 0. */
size_t webpbench_encode(const uint8_t *rgba, int width, int height, float quality, uint8_t **output) {
    if (quality < 0) return WebPEncodeLosslessRGBA(rgba, width, height, width * 4, output);
    return WebPEncodeRGBA(rgba, width, height, width * 4, quality, output);
}

void webpbench_free(void *pointer) { WebPFree(pointer); }
