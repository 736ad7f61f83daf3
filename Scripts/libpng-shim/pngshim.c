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
#include <png.h>
#include <setjmp.h>
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
