// Reading the QR codes in a picture (PNG or JPEG) with zbar, libpng and libjpeg, linked from
// their static archives. libjpeg reports errors by longjmp and libpng's simplified API by a
// return value: both stay inside this C code, so no jump crosses a Swift frame.
#ifndef TOKENS_PICTURE_SCAN_H
#define TOKENS_PICTURE_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// What `tokens_scan_picture` found.
enum tokens_picture_status {
    TOKENS_PICTURE_OK = 0,
    /// Neither a PNG nor a JPEG file.
    TOKENS_PICTURE_UNKNOWN = 1,
    /// More pixels than the caller allows (the size is read from the header, before any pixel).
    TOKENS_PICTURE_TOO_LARGE = 2,
    /// The file could not be decoded (truncated, damaged, an unsupported variant): see `message`.
    TOKENS_PICTURE_DAMAGED = 3,
    /// Memory ran out.
    TOKENS_PICTURE_NO_MEMORY = 4,
};

/// The outcome of a scan. `texts` holds each code's data as a 4-byte little-endian length and
/// that many bytes, in zbar's order; free it with `tokens_picture_scan_free`.
typedef struct {
    int status;
    uint32_t width;
    uint32_t height;
    unsigned char *texts;
    size_t length;
    char message[160];
} tokens_picture_scan;

/// Decodes `bytes` (a whole PNG or JPEG file) to grey levels and reads every QR code in it.
/// A picture of more than `max_pixels` pixels is refused before its pixels are decoded.
void tokens_scan_picture(const unsigned char *bytes, size_t count, uint64_t max_pixels, tokens_picture_scan *result);

/// Releases what a scan allocated (its texts are wiped first: they may hold secrets).
void tokens_picture_scan_free(tokens_picture_scan *result);

#endif
