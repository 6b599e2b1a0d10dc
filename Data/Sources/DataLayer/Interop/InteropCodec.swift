import Domain
import Foundation

/// Domain's import and export ports over every format in Interop/: detects the format, then
/// hands the file to that format's decoder or encoder.
///
/// A PNG or JPEG picture is read for its QR codes (`pictures`), and their texts, one a line, are
/// decoded as a file of them would be: Key URIs, or Google Authenticator's transfer codes.
public struct InteropCodec: AccountImportDecoder, AccountExportEncoder {
    private let pictures: any QRCodeReader

    public init(pictures: any QRCodeReader = QRPictureReader()) {
        self.pictures = pictures
    }

    public func decode(_ data: Data, as format: ImportFormat?, password: String?) throws -> DecodedImport {
        if format == nil, let signature = FileSignature.match(data), ["PNG", "JPEG"].contains(signature.name) {
            return try decodePicture(data)
        }
        guard let format = try format ?? FormatDetector.recognise(data) else { throw ImportError.unknownFormat }
        switch format {
        case .keyURIs, .ente: return try KeyURIListDecoder.decode(data, format: format)
        case .googleMigration: return try GoogleMigrationCodec.decode(data)
        case .aegis: return try AegisCodec.decode(data, password: password)
        case .twoFAS: return try TwoFASDecoder.decode(data, password: password)
        case .andOTP: return try AndOTPDecoder.decode(data, password: password)
        case .freeOTPPlus: return try FreeOTPPlusDecoder.decode(data)
        case .bitwarden: return try BitwardenDecoder.decode(data)
        case .proton: return try ProtonDecoder.decode(data)
        case .steam: return try SteamMaFileDecoder.decode(data)
        }
    }

    /// The accounts in a picture's QR codes; a code holding anything else is left out.
    private func decodePicture(_ data: Data) throws -> DecodedImport {
        let texts: [String]
        do { texts = try pictures.texts(in: data) } catch { throw ImportError.picture(reason: error.description) }
        let exports = texts.filter { text in
            ["otpauth://", "otpauth-migration://"].contains { text.lowercased().hasPrefix($0) }
        }
        guard !exports.isEmpty else { throw ImportError.noCodeInPicture }
        let lines = Data(exports.map { $0 + "\n" }.joined().utf8)
        guard let format = try FormatDetector.recognise(lines) else { throw ImportError.noCodeInPicture }
        return try decode(lines, as: format, password: nil)
    }

    /// An export with the system's randomness (for tools and tests; the export use case injects its own).
    public func encode(_ accounts: [Account], as format: ExportFormat, password: String?) throws -> EncodedExport {
        try encode(accounts, as: format, password: password, random: SecureRandomSource())
    }

    public func encode(_ accounts: [Account], as format: ExportFormat, password: String?, random: any RandomSource) throws
        -> EncodedExport
    {
        switch format {
        case .keyURIs:
            var omitted: [DroppedItem] = []
            let lines = accounts.compactMap { account -> String? in
                do { return KeyURI.format(try account.spec) } catch {
                    omitted.append(DroppedItem(account.displayName, reason: "\(error)"))
                    return nil
                }
            }
            return EncodedExport(data: Data(lines.map { $0 + "\n" }.joined().utf8), omitted: omitted)
        case .aegis:
            return EncodedExport(data: try AegisCodec.encode(accounts, password: nil, random: random))
        case .aegisEncrypted:
            guard let password, !password.isEmpty else { throw ImportError.passwordRequired(.aegis) }
            return EncodedExport(data: try AegisCodec.encode(accounts, password: password, random: random))
        case .googleMigration:
            return try GoogleMigrationCodec.encode(accounts, random: random)
        }
    }
}
