// The libwebp calls the WebP differential fuzz target needs, declared for Swift
// (-import-objc-header); libwebp-dev from apt-get provides the library.
#include <stddef.h>
#include <stdint.h>

/// Decodes a WebP still with libwebp as `dwebp -pam` does: RGBA, straight alpha. Returns a
/// buffer of width * height * 4 bytes to release with webpshim_free, or NULL when libwebp refuses
/// the file; `is_lossy` says whether the image is VP8 (lossy). A lossy image, or one of more than
/// `max_pixels` pixels, is not decoded (NULL, with its size in `width` and `height`).
uint8_t *webpshim_decode_rgba(const uint8_t *data, size_t size, long long max_pixels, int *width, int *height,
                              int *is_lossy);
void webpshim_free(uint8_t *pixels);
