import NIOCore
import NIOSSL
import Synchronization

/// The server's certificate chain and key, swapped whole when the operator reloads them
/// (SIGHUP): each TLS handshake takes the pair current at its ClientHello, so connections
/// open already keep theirs and new ones get the new pair; a pair that does not load, or whose
/// key is not the certificate's, is refused and the old one kept.
final class ReloadableCertificate: Sendable {
    private let pair: Mutex<(chain: [NIOSSLCertificate], key: NIOSSLPrivateKey)>
    let certificatePath: String
    let keyPath: String

    init(certificate: String, key: String) throws {
        certificatePath = certificate
        keyPath = key
        pair = Mutex(try ServerTLS.load(certificate: certificate, key: key))
    }

    /// Reads both files again and serves them from the next handshake on; throws (and keeps
    /// the pair in use) when they cannot be used.
    func reload() throws {
        let loaded = try ServerTLS.load(certificate: certificatePath, key: keyPath)
        pair.withLock { $0 = loaded }
    }

    /// A server configuration of the pair current now that takes, at each handshake, the pair
    /// current then.
    var configuration: TLSConfiguration {
        let current = pair.withLock { $0 }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: current.chain.map { .certificate($0) }, privateKey: .privateKey(current.key))
        configuration.sslContextCallback = callback
        return configuration
    }

    /// The handshake's pair, for `TLSConfiguration.sslContextCallback`.
    private var callback: NIOSSLContextCallback {
        { [self] _, promise in
            let current = pair.withLock { $0 }
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = current.chain.map { .certificate($0) }
            override.privateKey = .privateKey(current.key)
            promise.succeed(override)
        }
    }
}
