/* libpng side of the decode speed comparison (Sources/Benchmarks/DecodeSpeed).
 *
 * Decodes a PNG held in memory with libpng's regular read API (in-memory read callback,
 * png_read_image) and the transforms of Tests' reference decoder (pngsuite/pngref.c), except
 * that gray stays gray: the output has the same bytes per pixel as WeakImageStore's PNGDecoder
 *   gray                      -> 1 byte  (gray8)
 *   gray + tRNS, gray + alpha -> 2 bytes (grayAlpha8)
 *   RGB, palette, RGBA        -> 4 bytes (rgba8, filler alpha 255)
 * with palette expanded, 1/2/4-bit gray scaled to 8 bits, tRNS turned into alpha, 16-bit samples
 * reduced to their high byte, no gamma, interlacing handled by libpng. CRC errors are fatal, as in
 * pngref.c, and zlib verifies the Adler-32, so both decoders check the same things. */
#include "pngshim.h"

#include <png.h>
#include <zlib.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pngshim_source {
  const unsigned char *bytes;
  size_t size;
  size_t offset;
};

static void pngshim_read(png_structp png, png_bytep out, size_t count) {
  struct pngshim_source *source = png_get_io_ptr(png);
  if (source->size - source->offset < count) png_error(png, "unexpected end of data");
  memcpy(out, source->bytes + source->offset, count);
  source->offset += count;
}

/* Decodes `png` into `out` (row-major, tightly packed). Returns the bytes per pixel (1, 2 or 4)
 * and sets *width and *height; returns -1 if libpng rejects the file, -2 if the pixels need more
 * than `out_capacity` bytes. */
int pngshim_decode(const unsigned char *png, size_t size, unsigned char *out, size_t out_capacity,
                   unsigned *width, unsigned *height) {
  png_structp p = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  if (!p) return -1;
  png_infop info = png_create_info_struct(p);
  if (!info) {
    png_destroy_read_struct(&p, NULL, NULL);
    return -1;
  }
  /* volatile: modified between setjmp and a possible longjmp. */
  png_bytep *volatile rows = NULL;
  if (setjmp(png_jmpbuf(p))) {
    free(rows);
    png_destroy_read_struct(&p, &info, NULL);
    return -1;
  }
  struct pngshim_source source = {png, size, 0};
  png_set_read_fn(p, &source, pngshim_read);
  png_set_crc_action(p, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
  png_read_info(p, info);
  int color_type = png_get_color_type(p, info), bit_depth = png_get_bit_depth(p, info);
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(p);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(p);
  if (png_get_valid(p, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(p);
  if (bit_depth == 16) png_set_strip_16(p);
  if (color_type == PNG_COLOR_TYPE_RGB || color_type == PNG_COLOR_TYPE_PALETTE)
    png_set_filler(p, 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling(p);
  png_read_update_info(p, info);

  png_uint_32 w = png_get_image_width(p, info), h = png_get_image_height(p, info);
  size_t row_bytes = png_get_rowbytes(p, info);
  int channels = png_get_channels(p, info);
  if (row_bytes != (size_t)w * channels || (size_t)h > out_capacity / (row_bytes ? row_bytes : 1)) {
    png_destroy_read_struct(&p, &info, NULL);
    return -2;
  }
  rows = malloc(sizeof(png_bytep) * h);
  if (!rows) png_error(p, "out of memory");
  for (png_uint_32 y = 0; y < h; y++) rows[y] = out + (size_t)y * row_bytes;
  png_read_image(p, rows);
  png_read_end(p, NULL);
  free(rows);
  png_destroy_read_struct(&p, &info, NULL);
  *width = w;
  *height = h;
  return channels;
}

/* The differential fuzz target's side (Fuzz/PNGDifferentialFuzzTarget.swift): libpng as an
 * application gets it, with the transforms above. "libpng decodes it" means this function returns
 * pixels: png_read_info, png_read_image and png_read_end(png, info) finish without png_error.
 * Everything libpng calls a warning or a benign error (benign errors are warnings on read by
 * default) is allowed; its text is appended to `log`, one message a line, as is the text of the
 * error that stopped decoding. CRC handling is libpng's default, unlike pngshim_decode above: a
 * bad CRC on an ancillary chunk is a warning and the chunk is dropped, on a critical chunk (PLTE
 * included) an error. The user limits are set to `max_dimension` in both directions; libpng's own
 * allocations are bounded. */
struct pngshim_log {
  char *text;
  size_t capacity;
  size_t used;
};

static void pngshim_append(png_structp png, const char *kind, const char *message) {
  struct pngshim_log *log = png_get_error_ptr(png);
  if (!log || !log->text || log->used + 1 >= log->capacity) return;
  int written = snprintf(log->text + log->used, log->capacity - log->used, "%s: %s\n", kind, message);
  if (written > 0) log->used += (size_t)written < log->capacity - log->used ? (size_t)written : log->capacity - log->used - 1;
}

static void pngshim_on_warning(png_structp png, png_const_charp message) {
  pngshim_append(png, "warning", message);
}

static void pngshim_on_error(png_structp png, png_const_charp message) {
  pngshim_append(png, "error", message);
  png_longjmp(png, 1);
}

/* libpng allocates what an ancillary chunk declares before reading it, even past its chunk size
 * limit (only a warning), so a corrupt length costs hundreds of MiB. Refusing allocations above
 * 64 MiB changes no verdict on the fuzzer's small inputs: such a chunk cannot be complete in them,
 * and libpng drops a chunk it cannot allocate with a warning. The pixels are not allocated here. */
static png_voidp pngshim_bounded_malloc(png_structp png, png_alloc_size_t size) {
  (void)png;
  return size > (64u << 20) ? NULL : malloc(size);
}

static void pngshim_free(png_structp png, png_voidp pointer) {
  (void)png;
  free(pointer);
}

int pngshim_decode_default(const unsigned char *png, size_t size, unsigned max_dimension,
                           unsigned char **out, unsigned *width, unsigned *height, char *log_text,
                           size_t log_capacity) {
  struct pngshim_log log = {log_text, log_capacity, 0};
  if (log_text && log_capacity) log_text[0] = 0;
  *out = NULL;
  png_structp p = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &log, pngshim_on_error, pngshim_on_warning,
                                           NULL, pngshim_bounded_malloc, pngshim_free);
  if (!p) return -1;
  png_infop info = png_create_info_struct(p);
  if (!info) {
    png_destroy_read_struct(&p, NULL, NULL);
    return -1;
  }
  /* volatile: modified between setjmp and a possible longjmp. */
  png_bytep *volatile rows = NULL;
  unsigned char *volatile pixels = NULL;
  if (setjmp(png_jmpbuf(p))) {
    free(rows);
    free(pixels);
    png_destroy_read_struct(&p, &info, NULL);
    return -1;
  }
  struct pngshim_source source = {png, size, 0};
  png_set_read_fn(p, &source, pngshim_read);
  png_set_user_limits(p, max_dimension, max_dimension);
  png_read_info(p, info);
  int color_type = png_get_color_type(p, info), bit_depth = png_get_bit_depth(p, info);
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(p);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(p);
  if (png_get_valid(p, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(p);
  if (bit_depth == 16) png_set_strip_16(p);
  if (color_type == PNG_COLOR_TYPE_RGB || color_type == PNG_COLOR_TYPE_PALETTE)
    png_set_filler(p, 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling(p);
  png_read_update_info(p, info);

  png_uint_32 w = png_get_image_width(p, info), h = png_get_image_height(p, info);
  size_t row_bytes = png_get_rowbytes(p, info);
  int channels = png_get_channels(p, info);
  if (row_bytes != (size_t)w * channels) png_error(p, "pngshim: unexpected row size");
  pixels = malloc(row_bytes * h);
  rows = malloc(sizeof(png_bytep) * h);
  if (!pixels || !rows) png_error(p, "pngshim: out of memory");
  for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * row_bytes;
  png_read_image(p, rows);
  /* With the info struct, as the simplified API does: every chunk up to IEND is judged (with
   * NULL, libpng would skip all chunks after the image data unread, critical ones included). */
  png_read_end(p, info);
  free(rows);
  png_destroy_read_struct(&p, &info, NULL);
  *out = pixels;
  *width = w;
  *height = h;
  return channels;
}

/* How many bytes zlib's inflate produces from the zlib stream `data` before it ends, fails, or
 * runs out of input, counting at most `limit`; *outcome is 1 if the stream ended (Z_STREAM_END),
 * -1 if it failed, 0 if the input ran out first (or the limit was reached). The differential fuzz
 * target uses it to tell whether a stream PNGDecoder rejects went wrong only after the bytes the
 * image needs. */
size_t pngshim_zlib_output_before_failure(const unsigned char *data, size_t size, size_t limit, int *outcome) {
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  *outcome = -1;
  if (inflateInit(&stream) != Z_OK) return 0;
  unsigned char buffer[16384];
  size_t produced = 0;
  stream.next_in = (unsigned char *)data;
  stream.avail_in = (uInt)size;
  *outcome = 0;
  while (produced < limit) {
    stream.next_out = buffer;
    stream.avail_out = sizeof buffer;
    int result = inflate(&stream, Z_NO_FLUSH);
    produced += sizeof buffer - stream.avail_out;
    if (result == Z_STREAM_END) {
      *outcome = 1;
      break;
    }
    if (result != Z_OK && result != Z_BUF_ERROR) {
      *outcome = -1;
      break;
    }
    if (stream.avail_out == sizeof buffer) break; /* no progress: out of input */
  }
  inflateEnd(&stream);
  return produced < limit ? produced : limit;
}
