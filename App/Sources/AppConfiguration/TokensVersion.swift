/// The release of Tokens, written in one place: both executables print it (`--version`), and
/// `tokens-server` logs it at start.
package enum TokensVersion {
    package static let release = "0.1.0"
}
