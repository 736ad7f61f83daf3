/* A thin layer over giflib for the differential fuzz target: DGifSlurp from memory, then each
 * image's descriptor, graphic control extension and index raster copied out. */
#include "gifshim.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
} input;

static int read_input(GifFileType *gif, GifByteType *buffer, int count) {
    input *in = gif->UserData;
    size_t available = in->size - in->offset;
    size_t n = (size_t)count < available ? (size_t)count : available;
    memcpy(buffer, in->data + in->offset, n);
    in->offset += n;
    return (int)n;
}

int gifshim_decode(const unsigned char *data, size_t size, int *screen_width, int *screen_height,
                   gifshim_frame **frames, unsigned char **rasters, int *error_code) {
    input in = {data, size, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&in, read_input, &error);
    *error_code = error;
    if (gif == NULL) return -1;
    if (DGifSlurp(gif) != GIF_OK) {
        *error_code = gif->Error;
        DGifCloseFile(gif, &error);
        return -1;
    }
    int count = gif->ImageCount;
    size_t total = 0;
    for (int i = 0; i < count; i++) {
        const GifImageDesc *desc = &gif->SavedImages[i].ImageDesc;
        total += (size_t)desc->Width * (size_t)desc->Height;
    }
    *screen_width = gif->SWidth;
    *screen_height = gif->SHeight;
    *frames = calloc(count > 0 ? (size_t)count : 1, sizeof(gifshim_frame));
    *rasters = malloc(total > 0 ? total : 1);
    size_t offset = 0;
    for (int i = 0; i < count; i++) {
        const SavedImage *image = &gif->SavedImages[i];
        gifshim_frame *frame = &(*frames)[i];
        frame->left = image->ImageDesc.Left;
        frame->top = image->ImageDesc.Top;
        frame->width = image->ImageDesc.Width;
        frame->height = image->ImageDesc.Height;
        frame->interlaced = image->ImageDesc.Interlace ? 1 : 0;
        frame->transparent = -1;
        for (int e = 0; e < image->ExtensionBlockCount; e++) {
            if (image->ExtensionBlocks[e].Function == GRAPHICS_EXT_FUNC_CODE) frame->control_count++;
        }
        GraphicsControlBlock control;
        if (DGifSavedExtensionToGCB(gif, i, &control) == GIF_OK) {
            frame->control_valid = 1;
            frame->delay = control.DelayTime;
            frame->disposal = control.DisposalMode;
            frame->transparent = control.TransparentColor;
        }
        size_t pixels = (size_t)frame->width * (size_t)frame->height;
        if (pixels > 0 && image->RasterBits != NULL) memcpy(*rasters + offset, image->RasterBits, pixels);
        offset += pixels;
    }
    DGifCloseFile(gif, &error);
    return count;
}
