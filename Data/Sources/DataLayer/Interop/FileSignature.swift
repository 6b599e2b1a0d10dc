import Foundation

/// Kinds of file people hand to `import` by mistake, told by their first bytes: a screenshot
/// of a QR code, a password manager's database, an archive.
struct FileSignature: Sendable {
    let name: String
    let isImage: Bool
    let magic: [UInt8]
    /// Where the magic bytes start.
    let offset: Int

    static let known: [FileSignature] = [
        FileSignature(name: "PNG", isImage: true, magic: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], offset: 0),
        FileSignature(name: "JPEG", isImage: true, magic: [0xFF, 0xD8, 0xFF], offset: 0),
        FileSignature(name: "GIF", isImage: true, magic: Array("GIF8".utf8), offset: 0),
        FileSignature(name: "WebP", isImage: true, magic: Array("WEBP".utf8), offset: 8),
        FileSignature(name: "a KeePass database (.kdbx)", isImage: false, magic: [0x03, 0xD9, 0xA2, 0x9A], offset: 0),
        FileSignature(name: "a ZIP archive", isImage: false, magic: [0x50, 0x4B, 0x03, 0x04], offset: 0),
        FileSignature(name: "a PDF document", isImage: false, magic: Array("%PDF-".utf8), offset: 0),
        FileSignature(name: "a gzip archive", isImage: false, magic: [0x1F, 0x8B], offset: 0),
        FileSignature(name: "an SQLite database", isImage: false, magic: Array("SQLite format 3\u{0}".utf8), offset: 0),
    ]

    static func match(_ data: Data) -> FileSignature? {
        known.first { signature in
            data.count >= signature.offset + signature.magic.count
                && data.dropFirst(signature.offset).prefix(signature.magic.count).elementsEqual(signature.magic)
        }
    }
}
