/* The libjpeg shim's entry point (jpegshim.c), linked into the differential fuzz target
 * (Fuzz/JPEGDifferentialFuzzTarget.swift) through this header by `Scripts/fuzz.sh jpeg-diff`. */
#ifndef JPEGSHIM_H
#define JPEGSHIM_H

#include <stddef.h>

/* Where libjpeg stopped with a fatal error (jpegshim_result.failed_phase). */
enum {
  JPEGSHIM_NO_FAILURE = 0,
  JPEGSHIM_FAILED_IN_HEADER = 1,   /* jpeg_read_header, or the shim refused the header */
  JPEGSHIM_FAILED_IN_START = 2,    /* jpeg_start_decompress (a progressive file is read here) */
  JPEGSHIM_FAILED_IN_SCANLINES = 3,/* jpeg_read_scanlines, before the last row was out */
  JPEGSHIM_FAILED_IN_FINISH = 4    /* jpeg_finish_decompress: every row was already out */
};

/* What libjpeg made of one input. */
struct jpegshim_result {
  unsigned char *pixels;  /* malloc'd, width * height * channels bytes; the caller frees it */
  unsigned width, height; /* the output size (scaled) */
  int channels;           /* 1 (gray) or 3 (RGB; CMYK and YCCK converted as djpeg does) */
  int progressive;        /* the frame is progressive (SOF2) */
  int failed_phase;       /* JPEGSHIM_NO_FAILURE, or where the fatal error happened */
  int warning_count;      /* emit_message(-1) calls: libjpeg's corrupt-data warnings */
  char first_warning[200]; /* 200: libjpeg's JMSG_LENGTH_MAX */
  char first_warning_template[200];
  char error[200];          /* the fatal error's text, "" if none */
  char error_template[200]; /* its message template, as "Unsupported marker type 0x%02x" */
};

/* Decodes `jpeg` as `djpeg -dct int -scale 1/scale_denominator` does (see jpegshim.c), refusing
 * frames wider or taller than `max_dimension` or with more than `max_pixels` pixels before any
 * pixel is allocated. `block_smoothing` 0 switches libjpeg's progressive block smoothing off.
 * `pixels` is set whenever every row was read, even if jpeg_finish_decompress then failed. */
void jpegshim_decode(const unsigned char *jpeg, size_t size, unsigned scale_denominator, unsigned max_dimension,
                     unsigned long max_pixels, int block_smoothing, struct jpegshim_result *result);

#endif
