import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL

/// TLS termination in the server itself: a PEM certificate chain and its private key, read once
/// at start. Each mistake (a missing or unreadable file, not PEM, a key of another certificate) is
/// one line before anything listens.
enum ServerTLS {
    /// HTTP/1.1 over TLS with the files' chain and key.
    static func server(certificate: String, key: String, http1: HTTP1Channel.Configuration) throws -> HTTPServerBuilder {
        let chain = try read(certificate, as: "a PEM certificate") { try NIOSSLCertificate.fromPEMFile($0) }
        guard !chain.isEmpty else { throw ServerCompositionError.tlsFile(path: certificate, problem: "holds no PEM certificate") }
        let privateKey = try read(key, as: "a PEM private key") { try NIOSSLPrivateKey(file: $0, format: .pem) }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        do {
            // The context is built here, so a key of another certificate is refused now.
            _ = try NIOSSLContext(configuration: configuration)
            return try .tls(.http1(configuration: http1), tlsConfiguration: configuration)
        } catch {
            throw ServerCompositionError.tlsFile(path: key, problem: "is not the key of the certificate in \(certificate)")
        }
    }

    private static func read<T>(_ path: String, as kind: String, _ load: (String) throws -> T) throws -> T {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ServerCompositionError.tlsFile(path: path, problem: "does not exist")
        }
        guard !isFolder.boolValue else { throw ServerCompositionError.tlsFile(path: path, problem: "is a folder") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ServerCompositionError.tlsFile(path: path, problem: "cannot be read (permission denied)")
        }
        do { return try load(path) } catch { throw ServerCompositionError.tlsFile(path: path, problem: "is not \(kind)") }
    }
}
