import Domain

/// The QRCodeEncoder port in Swift: byte mode, error correction level M, the smallest version
/// (1–40) that holds the text, and the mask with the lowest penalty (ISO/IEC 18004).
public struct QREncoder: QRCodeEncoder {
    public init() {}

    public func encode(_ text: String) throws -> QRCode {
        try encode(text, mask: nil)
    }

    /// Encodes with a fixed `mask` (0–7), or the best one when nil; tests pin the mask.
    func encode(_ text: String, mask: Int?) throws -> QRCode {
        let bytes = Array(text.utf8)
        guard let version = QRVersion.smallest(holdingBytes: bytes.count) else { throw QRCodeError.tooLong }
        let codewords = ReedSolomon.interleave(data: version.dataCodewords(for: bytes), version: version)
        var matrix = QRModuleGrid(version: version)
        matrix.place(codewords)
        matrix.applyBestMask(fixed: mask)
        return QRCode(size: matrix.size, modules: matrix.modules)
    }
}
