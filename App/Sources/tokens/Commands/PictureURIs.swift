import Domain
import Foundation

/// `add --qr FILE`: the Key URIs in the QR codes of pictures (PNG or JPEG; `-` is standard
/// input), decoded in this process. Every picture is read before anything is added.
enum PictureURIs {
    /// The largest picture read, in MiB (a screenshot of an 8K screen is a few MiB).
    static let maxSize = 64

    static func uris(in files: [String], reader: any QRCodeReader) throws -> [String] {
        guard files.filter({ $0 == "-" }).count <= 1 else { throw CLIError("give --qr - only once") }
        return try files.flatMap { file in try uris(in: file, reader: reader) }
    }

    private static func uris(in file: String, reader: any QRCodeReader) throws -> [String] {
        let name = file == "-" ? "the picture on standard input" : file
        let picture = try ImportInput.read(file, maxSize: maxSize, limit: "the most a picture may be")
        return try uris(inPicture: picture, named: name, import: file == "-" ? "-" : "FILE", reader: reader)
    }

    /// The Key URIs in `picture`, whose errors call it `name`; a transfer code is pointed to
    /// `tokens import \(importArgument)`.
    static func uris(inPicture picture: Data, named name: String, import importArgument: String = "FILE", reader: any QRCodeReader)
        throws -> [String]
    {
        let texts = try self.texts(in: picture, named: name, reader: reader)
        let uris = texts.filter { $0.lowercased().hasPrefix("otpauth://") }
        if uris.isEmpty, texts.contains(where: { $0.lowercased().hasPrefix("otpauth-migration://") }) {
            throw CLIError(
                "\(name) holds a Google Authenticator transfer code: `tokens import \(importArgument)` reads it")
        }
        guard uris.count == texts.count else {
            throw CLIError("\(name) holds a QR code that is not an otpauth:// Key URI (it is not printed)")
        }
        return uris
    }

    /// The texts of the QR codes in `picture` (at least one), whose errors call it `name`.
    static func texts(in picture: Data, named name: String, reader: any QRCodeReader) throws -> [String] {
        let texts: [String]
        do { texts = try reader.texts(in: picture) } catch { throw CLIError("cannot read \(name): \(error)") }
        guard !texts.isEmpty else {
            throw CLIError("no QR code found in \(name) (a sharper or larger capture of the code may read)")
        }
        return texts
    }
}
