import Foundation

extension JSONDecoder {
    /// `plaintext` decoded, through a `Data` copy that is wiped after: for what the exact readers
    /// do not take (payloads older builds wrote, the sync account's row). Nil when it does not
    /// decode.
    func decodedWiping<T: Decodable>(_ type: T.Type, from plaintext: [UInt8]) -> T? {
        var data = Data(plaintext)
        defer { data.wipe() }
        return try? decode(type, from: data)
    }
}
