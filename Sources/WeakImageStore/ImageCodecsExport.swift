// The codecs, Bitmap and the decoder seam are part of the library's API: users import
// WeakImageStore alone.
@_exported import ImageCodecs
