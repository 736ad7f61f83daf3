/* The giflib shim's entry point (gifshim.c), linked into the GIF differential fuzz target
 * (Fuzz/GIFDifferentialFuzzTarget.swift) through this header. */
#ifndef GIFSHIM_H
#define GIFSHIM_H

#include <stddef.h>

/* One image of a file as giflib's DGifSlurp reads it. */
typedef struct {
    int left, top, width, height, interlaced;
    /* How many graphic control extensions precede the image, and the first one's fields when
     * giflib reads it (a 4-byte block): delay in hundredths, disposal 0...7, transparent index
     * or -1. */
    int control_count, control_valid, delay, disposal, transparent;
} gifshim_frame;

/* Reads a whole GIF with DGifSlurp. Returns the number of images, or -1 if giflib rejects the
 * file. On success *frames (count entries) and *rasters (each image's width * height palette
 * indices in display order, interlaced images de-interlaced by giflib, one after another) are
 * malloc'd for the caller to free. */
int gifshim_decode(const unsigned char *data, size_t size, int *screen_width, int *screen_height,
                   gifshim_frame **frames, unsigned char **rasters, int *error_code);

#endif
