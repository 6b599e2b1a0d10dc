#define _GNU_SOURCE
#include "byte_search.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const void *tokens_find_bytes(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    const unsigned char *h = haystack;
    const unsigned char *n = needle;
    if (needle_length == 0) return haystack;
    if (needle_length > haystack_length) return NULL;
    if (needle_length == 1) return memchr(h, n[0], haystack_length);
#if defined(__SSE2__)
    // Sixteen places at a time, those where the needle's first and last bytes both are (rare in
    // text that shares prefixes), then the bytes between compared.
    const size_t places = haystack_length - needle_length + 1;
    const size_t last = needle_length - 1;
    const __m128i first_byte = _mm_set1_epi8((char)n[0]);
    const __m128i last_byte = _mm_set1_epi8((char)n[last]);
    size_t at = 0;
    for (; at + 16 <= places; at += 16) {
        __m128i starts = _mm_loadu_si128((const __m128i *)(h + at));
        __m128i ends = _mm_loadu_si128((const __m128i *)(h + at + last));
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(starts, first_byte), _mm_cmpeq_epi8(ends, last_byte)));
        while (mask != 0) {
            size_t place = at + (size_t)__builtin_ctz(mask);
            if (memcmp(h + place + 1, n + 1, last - 1) == 0) return h + place;
            mask &= mask - 1;
        }
    }
    for (; at < places; at++) {
        if (h[at] == n[0] && h[at + last] == n[last] && memcmp(h + at + 1, n + 1, last - 1) == 0) return h + at;
    }
    return NULL;
#else
    return memmem(haystack, haystack_length, needle, needle_length);
#endif
}
