import Foundation

/// Port: reads the QR codes in a picture. Data implements it with zbar (QRPictureReader).
public protocol QRCodeReader: Sendable {
    /// The text of every QR code in `picture` (a PNG or JPEG file's bytes), in the order they
    /// were found; a code whose bytes are not UTF-8 text is left out. Empty when there is none.
    func texts(in picture: Data) throws(PictureReadError) -> [String]
}

/// Why a picture could not be read.
public enum PictureReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Neither PNG nor JPEG.
    case notAPicture
    /// More pixels than a screenshot of an 8K screen: refused from its header, before decoding.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// Truncated, damaged or of a variant the decoder does not read (`reason` is the decoder's).
    case damaged(reason: String)
    /// Memory ran out while decoding.
    case outOfMemory

    public var description: String {
        switch self {
        case .notAPicture: "it is not a PNG or JPEG picture"
        case .tooLarge(let width, let height, let limit):
            "the picture is \(width) × \(height) pixels, more than the \(limit >= 1_000_000 ? "\(limit / 1_000_000) million" : "\(limit)") read"
        case .damaged(let reason): reason.isEmpty ? "the picture is damaged" : "the picture is damaged (\(reason))"
        case .outOfMemory: "not enough memory to read the picture"
        }
    }
}
