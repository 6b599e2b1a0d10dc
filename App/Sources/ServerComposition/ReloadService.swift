import Logging
import ServiceLifecycle
import UnixSignals

/// SIGHUP, the operator's "reload": the TLS certificate and key are read again (a renewed
/// certificate is served from the next connection on, without a restart); without TLS there
/// is nothing to reload, and the server says so rather than dying of the signal.
struct ReloadService: Service {
    let certificate: ReloadableCertificate?
    let logger: Logger

    func run() async {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            guard let certificate else {
                logger.notice("SIGHUP: nothing to reload (no TLS certificate)")
                continue
            }
            do {
                try certificate.reload()
                logger.notice("SIGHUP: TLS certificate reloaded", metadata: ["certificate": "\(certificate.certificatePath)"])
            } catch {
                logger.error("SIGHUP: TLS certificate not reloaded, the old one is still served: \(error)")
            }
        }
    }
}
