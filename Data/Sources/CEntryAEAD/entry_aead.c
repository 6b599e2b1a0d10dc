#include "entry_aead.h"

#if defined(__APPLE__)

// On Apple's platforms swift-crypto is CryptoKit and links no BoringSSL: no context is ever
// made, and EntryAEAD opens through AES.GCM instead.
tokens_entry_aead *tokens_entry_aead_new(const uint8_t *key, size_t key_length) { return NULL; }

void tokens_entry_aead_free(tokens_entry_aead *aead) {}

int tokens_entry_aead_open(
    const tokens_entry_aead *aead, uint8_t *out, size_t out_capacity, size_t *out_length, const uint8_t *nonce,
    size_t nonce_length, const uint8_t *sealed, size_t sealed_length, const uint8_t *ad, size_t ad_length) {
    *out_length = 0;
    return 0;
}

#else

// BoringSSL as swift-crypto builds it wherever it is not CryptoKit (Linux among them): every
// symbol carries the prefix CCryptoBoringSSL_, and swift-crypto links it into every program that
// uses Crypto. Declared here rather than included: swift-crypto offers its C module to its own
// targets alone. A release of swift-crypto that renamed them fails at the link, not at run
// time; the contract tests keep this opening equal to AES.GCM.open's.
typedef struct evp_aead_st EVP_AEAD;
typedef struct evp_aead_ctx_st EVP_AEAD_CTX;

extern const EVP_AEAD *CCryptoBoringSSL_EVP_aead_aes_256_gcm(void);
extern EVP_AEAD_CTX *CCryptoBoringSSL_EVP_AEAD_CTX_new(
    const EVP_AEAD *aead, const uint8_t *key, size_t key_len, size_t tag_len);
extern void CCryptoBoringSSL_EVP_AEAD_CTX_free(EVP_AEAD_CTX *ctx);
extern int CCryptoBoringSSL_EVP_AEAD_CTX_open(
    const EVP_AEAD_CTX *ctx, uint8_t *out, size_t *out_len, size_t max_out_len, const uint8_t *nonce, size_t nonce_len,
    const uint8_t *in, size_t in_len, const uint8_t *ad, size_t ad_len);
extern void CCryptoBoringSSL_ERR_clear_error(void);

enum { KEY_LENGTH = 32, TAG_LENGTH = 16 };

tokens_entry_aead *tokens_entry_aead_new(const uint8_t *key, size_t key_length) {
    if (key_length != KEY_LENGTH) return NULL;
    EVP_AEAD_CTX *context = CCryptoBoringSSL_EVP_AEAD_CTX_new(CCryptoBoringSSL_EVP_aead_aes_256_gcm(), key, key_length, TAG_LENGTH);
    if (context == NULL) CCryptoBoringSSL_ERR_clear_error();
    return (tokens_entry_aead *)context;
}

void tokens_entry_aead_free(tokens_entry_aead *aead) {
    if (aead != NULL) CCryptoBoringSSL_EVP_AEAD_CTX_free((EVP_AEAD_CTX *)aead);
}

int tokens_entry_aead_open(
    const tokens_entry_aead *aead, uint8_t *out, size_t out_capacity, size_t *out_length, const uint8_t *nonce,
    size_t nonce_length, const uint8_t *sealed, size_t sealed_length, const uint8_t *ad, size_t ad_length) {
    *out_length = 0;
    if (aead == NULL || nonce_length != 12 || sealed_length < TAG_LENGTH || out_capacity < sealed_length - TAG_LENGTH) return 0;
    int opened = CCryptoBoringSSL_EVP_AEAD_CTX_open(
        (const EVP_AEAD_CTX *)aead, out, out_length, out_capacity, nonce, nonce_length, sealed, sealed_length, ad, ad_length);
    // BoringSSL decrypts before it compares the tag: what it wrote of a message that is not
    // authentic is cleared, and the error it queued for the thread is dropped, so that damaged
    // entries pile nothing up (nor leave an error for an unrelated later call to find).
    if (!opened) {
        for (size_t index = 0; index < out_capacity; index++) ((volatile uint8_t *)out)[index] = 0;
        *out_length = 0;
        CCryptoBoringSSL_ERR_clear_error();
    }
    return opened;
}

#endif
