/* The libpng shim's entry points (pngshim.c); the decode speed benchmark loads pngshim_decode
 * with dlopen, the differential fuzz target links pngshim_decode_default through this header. */
#ifndef PNGSHIM_H
#define PNGSHIM_H

#include <stddef.h>

int pngshim_decode(const unsigned char *png, size_t size, unsigned char *out, size_t out_capacity,
                   unsigned *width, unsigned *height);

/* Decodes with libpng's default CRC handling. Returns the bytes per pixel (1, 2 or 4) and sets
 * *out to malloc'd pixels the caller frees, or returns -1 if libpng rejects the file. `log`
 * receives libpng's warnings and its error, "warning: ..." / "error: ..." one a line. */
int pngshim_decode_default(const unsigned char *png, size_t size, unsigned max_dimension,
                           unsigned char **out, unsigned *width, unsigned *height, char *log,
                           size_t log_capacity);

/* The bytes zlib inflates from a zlib stream before it ends, fails or runs out of input, at most
 * `limit`; *outcome: 1 ended, -1 failed, 0 out of input (or limit reached). */
size_t pngshim_zlib_output_before_failure(const unsigned char *data, size_t size, size_t limit, int *outcome);

#endif
