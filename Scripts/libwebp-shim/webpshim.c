#include "webpshim.h"

#include <webp/decode.h>

uint8_t *webpshim_decode_rgba(const uint8_t *data, size_t size, int *width, int *height, int *is_lossy) {
  WebPBitstreamFeatures features;
  if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) return NULL;
  *is_lossy = features.format == 1;
  return WebPDecodeRGBA(data, size, width, height);
}

void webpshim_free(uint8_t *pixels) { WebPFree(pixels); }
