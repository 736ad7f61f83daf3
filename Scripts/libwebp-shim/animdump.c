// Writes every frame libwebp's WebPAnimDecoder composites (MODE_RGBA, default options) to
// stdout: per frame a line "timestamp_ms width height\n" then width * height * 4 bytes. Used by
// Scripts/make-webpsuite.py for the animation references:
//   gcc -O2 animdump.c -o animdump -lwebpdemux -lwebp
#include <stdio.h>
#include <stdlib.h>

#include <webp/demux.h>

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  FILE *file = fopen(argv[1], "rb");
  if (!file) return 2;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  uint8_t *bytes = malloc(size);
  if (fread(bytes, 1, size, file) != (size_t)size) return 2;
  fclose(file);
  WebPData data = {bytes, (size_t)size};
  WebPAnimDecoderOptions options;
  WebPAnimDecoderOptionsInit(&options);
  options.color_mode = MODE_RGBA;
  WebPAnimDecoder *decoder = WebPAnimDecoderNew(&data, &options);
  if (!decoder) return 1;
  WebPAnimInfo info;
  WebPAnimDecoderGetInfo(decoder, &info);
  fprintf(stderr, "%u %u %u %u %08x\n", info.canvas_width, info.canvas_height, info.frame_count, info.loop_count,
          info.bgcolor);
  while (WebPAnimDecoderHasMoreFrames(decoder)) {
    uint8_t *pixels;
    int timestamp;
    if (!WebPAnimDecoderGetNext(decoder, &pixels, &timestamp)) return 1;
    printf("%d %u %u\n", timestamp, info.canvas_width, info.canvas_height);
    fwrite(pixels, 1, (size_t)info.canvas_width * info.canvas_height * 4, stdout);
  }
  WebPAnimDecoderDelete(decoder);
  free(bytes);
  return 0;
}
