#include "picture_scan.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
// After stdio.h: jpeglib.h names FILE without including it.
#include <jpeglib.h>
#include <png.h>
#include <string.h>
#include <zbar.h>

static void fail(tokens_picture_scan *result, int status, const char *message) {
    result->status = status;
    snprintf(result->message, sizeof result->message, "%s", message ? message : "");
}

static int too_large(tokens_picture_scan *result, uint64_t width, uint64_t height, uint64_t max_pixels) {
    result->width = (uint32_t)width;
    result->height = (uint32_t)height;
    if (width == 0 || height == 0) {
        fail(result, TOKENS_PICTURE_DAMAGED, "the picture has no pixels");
        return 1;
    }
    if (width * height > max_pixels) {
        fail(result, TOKENS_PICTURE_TOO_LARGE, "");
        return 1;
    }
    return 0;
}

/// PNG through libpng's simplified API (errors are return values), composited on white.
static unsigned char *decode_png(const unsigned char *bytes, size_t count, uint64_t max_pixels, tokens_picture_scan *result) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, bytes, count)) {
        fail(result, TOKENS_PICTURE_DAMAGED, image.message);
        return NULL;
    }
    if (too_large(result, image.width, image.height, max_pixels)) {
        png_image_free(&image);
        return NULL;
    }
    image.format = PNG_FORMAT_GRAY;
    unsigned char *grey = malloc(PNG_IMAGE_SIZE(image));
    if (!grey) {
        png_image_free(&image);
        fail(result, TOKENS_PICTURE_NO_MEMORY, "");
        return NULL;
    }
    png_color white = {255, 255, 255};
    if (!png_image_finish_read(&image, &white, grey, 0, NULL)) {
        fail(result, TOKENS_PICTURE_DAMAGED, image.message);
        png_image_free(&image);
        free(grey);
        return NULL;
    }
    return grey;
}

/// libjpeg's error manager: the message is kept, and control goes back to `decode_jpeg`.
struct jpeg_failure {
    struct jpeg_error_mgr manager;
    jmp_buf back;
    char message[JMSG_LENGTH_MAX];
};

static void jpeg_fail(j_common_ptr info) {
    struct jpeg_failure *failure = (struct jpeg_failure *)info->err;
    (*info->err->format_message)(info, failure->message);
    longjmp(failure->back, 1);
}

static void jpeg_quiet(j_common_ptr info, int level) {
    (void)info;
    (void)level;
}

static unsigned char *decode_jpeg(const unsigned char *bytes, size_t count, uint64_t max_pixels, tokens_picture_scan *result) {
    struct jpeg_decompress_struct info;
    struct jpeg_failure failure;
    unsigned char *volatile grey = NULL;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_fail;
    failure.manager.emit_message = jpeg_quiet;
    failure.message[0] = 0;
    if (setjmp(failure.back)) {
        fail(result, TOKENS_PICTURE_DAMAGED, failure.message);
        jpeg_destroy_decompress(&info);
        free(grey);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, bytes, (unsigned long)count);
    jpeg_read_header(&info, TRUE);
    if (too_large(result, info.image_width, info.image_height, max_pixels)) {
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    info.out_color_space = JCS_GRAYSCALE;
    jpeg_start_decompress(&info);
    size_t stride = info.output_width;
    grey = malloc(stride * info.output_height);
    if (!grey) {
        jpeg_destroy_decompress(&info);
        fail(result, TOKENS_PICTURE_NO_MEMORY, "");
        return NULL;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = grey + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return grey;
}

static int append(tokens_picture_scan *result, size_t *capacity, const char *data, unsigned length) {
    size_t needed = result->length + 4 + length;
    if (needed > *capacity) {
        size_t grown = needed * 2;
        unsigned char *larger = malloc(grown);
        if (!larger) return 0;
        if (result->texts) {
            memcpy(larger, result->texts, result->length);
            memset(result->texts, 0, result->length);
            free(result->texts);
        }
        result->texts = larger;
        *capacity = grown;
    }
    unsigned char *at = result->texts + result->length;
    for (int shift = 0; shift < 4; shift++) at[shift] = (unsigned char)(length >> (8 * shift));
    memcpy(at + 4, data, length);
    result->length = needed;
    return 1;
}

void tokens_scan_picture(const unsigned char *bytes, size_t count, uint64_t max_pixels, tokens_picture_scan *result) {
    memset(result, 0, sizeof *result);
    static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char *grey;
    if (count >= 8 && memcmp(bytes, png_signature, 8) == 0) {
        grey = decode_png(bytes, count, max_pixels, result);
    } else if (count >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff) {
        grey = decode_jpeg(bytes, count, max_pixels, result);
    } else {
        fail(result, TOKENS_PICTURE_UNKNOWN, "");
        return;
    }
    if (!grey) return;
    zbar_image_scanner_t *scanner = zbar_image_scanner_create();
    zbar_image_t *image = zbar_image_create();
    if (!scanner || !image) {
        if (scanner) zbar_image_scanner_destroy(scanner);
        if (image) zbar_image_destroy(image);
        free(grey);
        fail(result, TOKENS_PICTURE_NO_MEMORY, "");
        return;
    }
    // QR codes only, also light on dark (some apps draw them so).
    zbar_image_scanner_set_config(scanner, 0, ZBAR_CFG_ENABLE, 0);
    zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1);
    zbar_image_scanner_set_config(scanner, 0, ZBAR_CFG_TEST_INVERTED, 1);
    zbar_image_set_format(image, zbar_fourcc('Y', '8', '0', '0'));
    zbar_image_set_size(image, result->width, result->height);
    zbar_image_set_data(image, grey, (unsigned long)result->width * result->height, NULL);
    zbar_scan_image(scanner, image);
    size_t capacity = 0;
    for (const zbar_symbol_t *symbol = zbar_image_first_symbol(image); symbol; symbol = zbar_symbol_next(symbol)) {
        if (!append(result, &capacity, zbar_symbol_get_data(symbol), zbar_symbol_get_data_length(symbol))) {
            fail(result, TOKENS_PICTURE_NO_MEMORY, "");
            break;
        }
    }
    zbar_image_destroy(image);
    zbar_image_scanner_destroy(scanner);
    memset(grey, 0, (size_t)result->width * result->height);
    free(grey);
}

void tokens_picture_scan_free(tokens_picture_scan *result) {
    if (result->texts) {
        memset(result->texts, 0, result->length);
        free(result->texts);
    }
    result->texts = NULL;
    result->length = 0;
}
