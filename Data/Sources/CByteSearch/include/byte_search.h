// A search for a byte string in a buffer, as memmem(3) does, quicker for the vault's search
// index: its haystacks share prefixes ("github", "bench1", "bench2"…), on which glibc's memmem
// (two-way) keeps starting partial matches.
#ifndef TOKENS_BYTE_SEARCH_H
#define TOKENS_BYTE_SEARCH_H

#include <stddef.h>

/// The first occurrence of the `needle_length` bytes at `needle` among the `haystack_length`
/// bytes at `haystack`, or NULL. An empty needle is found at `haystack`.
const void *tokens_find_bytes(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
