/* giflib as the GIF decode speed benchmark's yardstick (Sources/Benchmarks/DecodeSpeed,
 * loaded with dlopen; Scripts/build-giflib-shim.sh builds it): DGifSlurp from memory, then every
 * frame composed on an RGBA canvas by the rules GIFDecoder follows (browsers'): a transparent
 * index leaves the canvas, disposal 2 clears the frame's area to transparent, disposal 3 restores
 * the canvas from before the frame; the canvas starts transparent. Each composed frame is copied
 * out, as a decoder hands out each frame as an image of its own. */
#include <gif_lib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *bytes;
    size_t size, offset;
} memory_input;

static int read_memory(GifFileType *gif, GifByteType *buffer, int length) {
    memory_input *input = gif->UserData;
    size_t left = input->size - input->offset;
    size_t count = (size_t)length < left ? (size_t)length : left;
    memcpy(buffer, input->bytes + input->offset, count);
    input->offset += count;
    return (int)count;
}

/* Decodes and composes every frame of a GIF. When `frames_out` is not NULL it receives all
 * frames, one canvas after another (`capacity` bytes at most: the check the benchmark runs
 * before timing); otherwise each frame is copied into a fresh allocation and freed. Returns the
 * frame count, or -1 if giflib rejects the file or it does not fit. */
int gifcompose_decode(const unsigned char *bytes, size_t size, unsigned char *frames_out, size_t capacity,
                      int *width, int *height) {
    memory_input input = {bytes, size, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&input, read_memory, &error);
    if (!gif) return -1;
    if (DGifSlurp(gif) != GIF_OK) {
        DGifCloseFile(gif, &error);
        return -1;
    }
    int w = gif->SWidth, h = gif->SHeight, count = gif->ImageCount;
    size_t canvas_bytes = (size_t)w * (size_t)h * 4;
    if (w <= 0 || h <= 0 || count <= 0 || (frames_out && canvas_bytes * (size_t)count > capacity)) {
        DGifCloseFile(gif, &error);
        return -1;
    }
    uint32_t *canvas = calloc(1, canvas_bytes);
    uint32_t *saved = malloc(canvas_bytes);
    for (int i = 0; i < count; i++) {
        SavedImage *image = &gif->SavedImages[i];
        GraphicsControlBlock control = {0, false, 0, NO_TRANSPARENT_COLOR};
        DGifSavedExtensionToGCB(gif, i, &control);
        ColorMapObject *map = image->ImageDesc.ColorMap ? image->ImageDesc.ColorMap : gif->SColorMap;
        uint32_t palette[256];
        for (int c = 0; c < 256; c++) {
            const GifColorType *color = map && c < map->ColorCount ? &map->Colors[c] : NULL;
            unsigned char rgba[4] = {color ? color->Red : 0, color ? color->Green : 0, color ? color->Blue : 0, 255};
            memcpy(&palette[c], rgba, 4);
        }
        int x0 = image->ImageDesc.Left, y0 = image->ImageDesc.Top;
        int fw = image->ImageDesc.Width, fh = image->ImageDesc.Height;
        int cw = x0 >= w ? 0 : (fw < w - x0 ? fw : w - x0);
        int ch = y0 >= h ? 0 : (fh < h - y0 ? fh : h - y0);
        if (control.DisposalMode == DISPOSE_PREVIOUS) memcpy(saved, canvas, canvas_bytes);
        for (int y = 0; y < ch && image->RasterBits; y++) {
            const GifByteType *row = image->RasterBits + (size_t)y * fw;
            uint32_t *out = canvas + (size_t)(y0 + y) * w + x0;
            for (int x = 0; x < cw; x++) {
                if (row[x] != control.TransparentColor) out[x] = palette[row[x]];
            }
        }
        if (frames_out) {
            memcpy(frames_out + (size_t)i * canvas_bytes, canvas, canvas_bytes);
        } else {
            unsigned char *frame = malloc(canvas_bytes);
            memcpy(frame, canvas, canvas_bytes);
            /* An empty asm statement that reads the pointer, so the copy is not optimized away. */
            __asm__ volatile("" : : "r"(frame) : "memory");
            free(frame);
        }
        if (control.DisposalMode == DISPOSE_BACKGROUND) {
            for (int y = 0; y < ch; y++) memset(canvas + (size_t)(y0 + y) * w + x0, 0, (size_t)cw * 4);
        } else if (control.DisposalMode == DISPOSE_PREVIOUS) {
            memcpy(canvas, saved, canvas_bytes);
        }
    }
    free(canvas);
    free(saved);
    DGifCloseFile(gif, &error);
    *width = w;
    *height = h;
    return count;
}
