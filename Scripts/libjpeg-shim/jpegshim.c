/* libjpeg side of the JPEG differential fuzz target (Fuzz/JPEGDifferentialFuzzTarget.swift).
 *
 * Decodes a JPEG held in memory the way `djpeg -dct int [-scale 1/N]` writes a PNM, with
 * libjpeg-turbo's own defaults otherwise: JDCT_ISLOW, do_fancy_upsampling and
 * do_block_smoothing on (block smoothing can be switched off for diagnosis), buffered-image mode
 * off, so a progressive file is read to its end inside jpeg_start_decompress. The output colour
 * space is libjpeg's default: grayscale for one component, RGB for YCbCr and RGB, CMYK for CMYK
 * and YCCK, which is then turned into RGB with djpeg's `cmyk_to_rgb` (cmyk.h):
 * R = (JSAMPLE)(C * K / 255.0 + 0.5) on the stored (Adobe-inverted) values. Any other colour
 * space (2 or 5+ components) is refused as djpeg's PPM writer refuses it.
 *
 * "libjpeg decodes it" means jpeg_read_header, jpeg_start_decompress, jpeg_read_scanlines for
 * every row and jpeg_finish_decompress finish without error_exit: djpeg's exit status 0 or 2.
 * Warnings (emit_message level -1, the "Corrupt JPEG data" family) are counted, not fatal, as in
 * djpeg; trace messages (level >= 0) are ignored. The error manager longjmps out of error_exit
 * and records the message and the phase it happened in.
 *
 * The source is djpeg's: jpeg_stdio_src, here on an fmemopen stream. It matters for damaged scan
 * data: libjpeg-turbo's Huffman decoder takes its fast path (decode_mcu_fast, which turns an
 * invalid code into symbol 0 without a warning) only while the source's 4096-byte buffer holds
 * enough bytes for an MCU, and its slow path otherwise (a warning, and other bits consumed), so
 * jpeg_mem_src, whose buffer is the whole file, gives other pixels than djpeg for some damaged
 * files. At the end of the data the source inserts a fake EOI with the warning "Premature end of
 * JPEG file"; an empty input is "Empty input file". Size limit: after jpeg_read_header,
 * a frame wider or taller than max_dimension or with more than max_pixels pixels is refused
 * before libjpeg allocates anything for it, as the Swift decoder's limits refuse it at the SOF. */
#include <stdio.h>

#include <jerror.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "jpegshim.h"

struct jpegshim_error_manager {
  struct jpeg_error_mgr base; /* first: libjpeg's err pointer is cast to this */
  jmp_buf escape;
  struct jpegshim_result *result;
};

static void jpegshim_copy(char *destination, const char *source) {
  snprintf(destination, 200, "%s", source); /* 200: the size of every text field of the result */
}

static void jpegshim_template(j_common_ptr cinfo, char *destination) {
  struct jpeg_error_mgr *err = cinfo->err;
  const char *text = "";
  if (err->msg_code > 0 && err->msg_code <= err->last_jpeg_message && err->jpeg_message_table)
    text = err->jpeg_message_table[err->msg_code];
  jpegshim_copy(destination, text ? text : "");
}

static void jpegshim_error_exit(j_common_ptr cinfo) {
  struct jpegshim_error_manager *manager = (struct jpegshim_error_manager *)cinfo->err;
  cinfo->err->format_message(cinfo, manager->result->error);
  jpegshim_template(cinfo, manager->result->error_template);
  longjmp(manager->escape, 1);
}

static void jpegshim_emit_message(j_common_ptr cinfo, int level) {
  if (level >= 0) return; /* trace messages */
  struct jpegshim_error_manager *manager = (struct jpegshim_error_manager *)cinfo->err;
  struct jpegshim_result *result = manager->result;
  if (result->warning_count == 0) {
    cinfo->err->format_message(cinfo, result->first_warning);
    jpegshim_template(cinfo, result->first_warning_template);
  }
  result->warning_count++;
  cinfo->err->num_warnings++;
}

static void jpegshim_output_message(j_common_ptr cinfo) { (void)cinfo; }

void jpegshim_decode(const unsigned char *jpeg, size_t size, unsigned scale_denominator, unsigned max_dimension,
                     unsigned long max_pixels, int block_smoothing, struct jpegshim_result *result) {
  memset(result, 0, sizeof *result);
  struct jpeg_decompress_struct cinfo;
  struct jpegshim_error_manager manager;
  cinfo.err = jpeg_std_error(&manager.base);
  manager.base.error_exit = jpegshim_error_exit;
  manager.base.emit_message = jpegshim_emit_message;
  manager.base.output_message = jpegshim_output_message;
  manager.result = result;
  /* volatile: modified between setjmp and a possible longjmp. */
  unsigned char *volatile samples = NULL;
  unsigned char *volatile pixels = NULL;
  volatile int phase = JPEGSHIM_FAILED_IN_HEADER;
  FILE *volatile stream = NULL;
  jpeg_create_decompress(&cinfo);
  if (setjmp(manager.escape)) {
    result->failed_phase = phase;
    /* Every row is out when jpeg_finish_decompress fails: keep them for the report. */
    if (phase == JPEGSHIM_FAILED_IN_FINISH) {
      result->pixels = pixels;
      pixels = NULL;
    }
    free(samples);
    free(pixels);
    jpeg_destroy_decompress(&cinfo);
    if (stream) fclose(stream);
    return;
  }
  /* An empty fmemopen stream is an error in glibc: jpeg_mem_src reports it as djpeg would. */
  stream = size ? fmemopen((void *)jpeg, size, "rb") : NULL;
  if (stream)
    jpeg_stdio_src(&cinfo, stream);
  else
    jpeg_mem_src(&cinfo, jpeg, (unsigned long)size);
  jpeg_read_header(&cinfo, TRUE);
  result->progressive = cinfo.progressive_mode ? 1 : 0;
  if (cinfo.image_width > max_dimension || cinfo.image_height > max_dimension ||
      (unsigned long)cinfo.image_width * cinfo.image_height > max_pixels) {
    jpegshim_copy(result->error, "jpegshim: the frame exceeds the size limit");
    jpegshim_copy(result->error_template, result->error);
    result->failed_phase = JPEGSHIM_FAILED_IN_HEADER;
    jpeg_destroy_decompress(&cinfo);
    if (stream) fclose(stream);
    return;
  }
  if (cinfo.out_color_space != JCS_GRAYSCALE && cinfo.out_color_space != JCS_RGB &&
      cinfo.out_color_space != JCS_CMYK) {
    jpegshim_copy(result->error, "jpegshim: djpeg's PPM writer refuses this colour space");
    jpegshim_copy(result->error_template, result->error);
    result->failed_phase = JPEGSHIM_FAILED_IN_HEADER;
    jpeg_destroy_decompress(&cinfo);
    if (stream) fclose(stream);
    return;
  }
  cinfo.dct_method = JDCT_ISLOW;
  cinfo.scale_num = 1;
  cinfo.scale_denom = scale_denominator;
  cinfo.do_block_smoothing = block_smoothing ? TRUE : FALSE;
  phase = JPEGSHIM_FAILED_IN_START;
  jpeg_start_decompress(&cinfo);
  unsigned width = cinfo.output_width, height = cinfo.output_height;
  int components = cinfo.output_components;
  int channels = components == 1 ? 1 : 3;
  samples = malloc((size_t)width * components);
  pixels = malloc((size_t)width * height * channels);
  if (!samples || !pixels) {
    jpegshim_copy(result->error, "jpegshim: out of memory");
    result->failed_phase = JPEGSHIM_FAILED_IN_START;
    free(samples);
    free(pixels);
    jpeg_destroy_decompress(&cinfo);
    if (stream) fclose(stream);
    return;
  }
  phase = JPEGSHIM_FAILED_IN_SCANLINES;
  while (cinfo.output_scanline < height) {
    unsigned char *row = pixels + (size_t)cinfo.output_scanline * width * channels;
    JSAMPROW target = components == 4 ? samples : row;
    jpeg_read_scanlines(&cinfo, &target, 1);
    if (components == 4) {
      for (unsigned x = 0; x < width; x++) {
        const unsigned char *cmyk = samples + 4 * x;
        double k = cmyk[3];
        row[3 * x] = (unsigned char)(cmyk[0] * k / 255.0 + 0.5);
        row[3 * x + 1] = (unsigned char)(cmyk[1] * k / 255.0 + 0.5);
        row[3 * x + 2] = (unsigned char)(cmyk[2] * k / 255.0 + 0.5);
      }
    }
  }
  result->width = width;
  result->height = height;
  result->channels = channels;
  phase = JPEGSHIM_FAILED_IN_FINISH;
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  if (stream) fclose(stream);
  free(samples);
  result->pixels = pixels;
}
