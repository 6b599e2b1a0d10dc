import Foundation
import NIOCore
import ServiceLifecycle

/// An address another process listens on already, told as one line that names it and the
/// setting that chooses another (the system's words name neither).
package struct AddressInUse: Error, CustomStringConvertible, Equatable {
    package let address: String
    package let setting: String

    package var description: String {
        "\(address) is already in use (another tokens-server, or another program, listens there); choose another with \(setting)"
    }

    /// `error` as an `AddressInUse` when it is a bind refused because the address is taken;
    /// otherwise as it is.
    package static func naming(_ error: any Error, address: String, setting: String) -> any Error {
        guard let error = error as? IOError, error.errnoCode == EADDRINUSE else { return error }
        return AddressInUse(address: address, setting: setting)
    }
}

/// A service that listens, whose bind refused for a taken address names the address.
struct NamingItsAddress<Listening: Service>: Service {
    let service: Listening
    let address: String
    let setting: String

    func run() async throws {
        do {
            try await service.run()
        } catch {
            throw AddressInUse.naming(error, address: address, setting: setting)
        }
    }
}
