// AES-256-GCM opening with one key schedule for many messages: BoringSSL's EVP_AEAD_CTX, the
// implementation swift-crypto's AES.GCM runs, reached here directly. swift-crypto makes a new
// context (key schedule and GHASH table) and goes through its generic Swift path for every
// message; opening 10 000 vault entries spent more there than in the cipher itself.
#ifndef TOKENS_ENTRY_AEAD_H
#define TOKENS_ENTRY_AEAD_H

#include <stddef.h>
#include <stdint.h>

/// An AES-256-GCM key, ready to open with (16-byte tags). Opening may run on several threads at
/// once with one context (BoringSSL's EVP_AEAD_CTX_open allows it).
typedef struct tokens_entry_aead tokens_entry_aead;

/// A context for the 32-byte `key`, or NULL if it cannot be made (always on Apple's platforms,
/// where swift-crypto links no BoringSSL).
tokens_entry_aead *tokens_entry_aead_new(const uint8_t *key, size_t key_length);

/// Frees the context; BoringSSL clears its memory (the key schedule) as it frees it.
void tokens_entry_aead_free(tokens_entry_aead *aead);

/// Opens `sealed` (ciphertext then 16-byte tag) with the 12-byte `nonce` and the associated
/// data `ad` into `out` (at least `sealed_length - 16` bytes). 1 when it is authentic (the
/// plaintext's length in `out_length`), 0 when not (nothing to read in `out`).
int tokens_entry_aead_open(
    const tokens_entry_aead *aead, uint8_t *out, size_t out_capacity, size_t *out_length, const uint8_t *nonce,
    size_t nonce_length, const uint8_t *sealed, size_t sealed_length, const uint8_t *ad, size_t ad_length);

#endif
