#include "webpshim.h"

#include <webp/decode.h>

uint8_t *webpshim_decode_rgba(const uint8_t *data, size_t size, long long max_pixels, int *width, int *height,
                               int *is_lossy) {
  WebPBitstreamFeatures features;
  if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) return NULL;
  *is_lossy = features.format == 1;
  *width = features.width;
  *height = features.height;
  // Lossy stills are not compared, and large images not decoded: the fuzzer's memory limit
  // would flag libwebp's own allocation.
  if (*is_lossy || (long long)features.width * features.height > max_pixels) return NULL;
  return WebPDecodeRGBA(data, size, width, height);
}

void webpshim_free(uint8_t *pixels) { WebPFree(pixels); }
