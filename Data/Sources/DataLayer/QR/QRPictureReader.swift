import CPictureScan
import Domain
import Foundation

/// Domain's QRCodeReader: the picture decoded to grey levels (libpng, libjpeg) and scanned by
/// zbar, in C (`CPictureScan`). Bounded for hostile files: the pixel count is checked from the
/// header before any pixel is decoded; the caller bounds the file's size.
public struct QRPictureReader: QRCodeReader {
    /// An 8K screenshot (7680 × 4320, 33 million pixels) fits; 40 000 × 40 000 does not. Decoding
    /// and scanning 36 million grey pixels takes about 0.3 s on a laptop core.
    public static let defaultMaxPixels = 40_000_000

    private let maxPixels: Int

    public init(maxPixels: Int = defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    public func texts(in picture: Data) throws(PictureReadError) -> [String] {
        var scan = tokens_picture_scan()
        picture.withUnsafeBytes { bytes in
            tokens_scan_picture(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, UInt64(maxPixels), &scan)
        }
        defer { tokens_picture_scan_free(&scan) }
        let message = withUnsafeBytes(of: scan.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        switch scan.status {
        case Int32(TOKENS_PICTURE_OK.rawValue): break
        case Int32(TOKENS_PICTURE_UNKNOWN.rawValue): throw .notAPicture
        case Int32(TOKENS_PICTURE_TOO_LARGE.rawValue): throw .tooLarge(width: Int(scan.width), height: Int(scan.height), limit: maxPixels)
        case Int32(TOKENS_PICTURE_NO_MEMORY.rawValue): throw .outOfMemory
        default: throw .damaged(reason: message)
        }
        guard let start = scan.texts else { return [] }
        let bytes = UnsafeRawBufferPointer(start: start, count: scan.length)
        var texts: [String] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
            offset += 4
            guard offset + length <= bytes.count else { break }
            if let text = String(validating: bytes[offset..<(offset + length)], as: UTF8.self) { texts.append(text) }
            offset += length
        }
        return texts
    }
}
