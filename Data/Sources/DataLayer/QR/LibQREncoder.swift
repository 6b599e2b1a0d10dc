import CQREncode
import Domain

/// The QRCodeEncoder port over libqrencode (error correction M, byte mode).
public struct LibQREncoder: QRCodeEncoder {
    public init() {}

    public func encode(_ text: String) throws -> QRCode {
        guard let code = text.withCString({ QRcode_encodeString8bit($0, 0, QR_ECLEVEL_M) }) else {
            throw QRCodeError.tooLong
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // Bit 0 of each byte: dark module.
        let modules = (0..<size * size).map { code.pointee.data[$0] & 1 == 1 }
        return QRCode(size: size, modules: modules)
    }
}
