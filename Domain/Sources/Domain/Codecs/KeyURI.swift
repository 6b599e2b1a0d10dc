/// The otpauth:// Key URI format (Google Authenticator's, with Steam as a type).
///
/// Parsing follows what real apps emit, not only the spec:
/// - the label is `issuer:account`, with the colon raw or as `%3A`, and spaces after it ignored;
/// - when the label's issuer and the `issuer` parameter disagree, the parameter wins (it is the
///   field the spec calls authoritative, and the label prefix is often shortened by sites);
/// - `+` means a space in every part, as form encoding has it; a literal plus must be `%2B`;
/// - secrets may be lower case, grouped with spaces, or padded with `=` (raw or `%3D`);
/// - `otpauth://totp/…&encoder=steam` (Aegis, andOTP) is read as a Steam account;
/// - unknown parameters are ignored; missing ones default to SHA1, 6 digits and 30 seconds.
public enum KeyURI {
    /// Parses a Key URI into validated account content. Control characters or bidi overrides
    /// in the issuer or account name are an error (`.invalid(.forbiddenCharacters)`).
    public static func parse(_ text: String) throws(KeyURIError) -> AccountSpec {
        try parse(text, removingForbiddenText: false).spec
    }

    /// Parses a Key URI, removing forbidden characters (see AccountText) from the issuer and the
    /// account name instead of refusing them, as an import does; says which fields lost some.
    public static func parse(
        _ text: String, removingForbiddenText: Bool
    ) throws(KeyURIError) -> (spec: AccountSpec, cleaned: [AccountTextField]) {
        let trimmed = text.trimmingSpaces
        let schemeEnd = trimmed.index(trimmed.startIndex, offsetBy: 10, limitedBy: trimmed.endIndex)
        guard let schemeEnd, trimmed[..<schemeEnd].lowercased() == "otpauth://" else {
            throw .notKeyURI
        }
        let rest = trimmed[schemeEnd...]
        let (pathPart, queryPart) = split(rest, at: "?")
        let (typeText, labelText) = split(pathPart, at: "/")
        guard let labelText else { throw .missingLabel }

        let query = try parameters(queryPart ?? "")
        var type = typeText.lowercased()
        if type == "totp", query["encoder"]?.lowercased() == "steam" { type = "steam" }

        let label = try decode(labelText, field: "label")
        let (labelIssuer, labelAccount) = splitLabel(label)
        let issuerParameter = query["issuer"]?.trimmingSpaces ?? ""
        var issuer = issuerParameter.isEmpty ? labelIssuer : issuerParameter
        var account = labelAccount
        var cleaned: [AccountTextField] = []
        if removingForbiddenText {
            issuer = AccountText.removingForbidden(issuer, as: .issuer, noting: &cleaned)
            account = AccountText.removingForbidden(account, as: .account, noting: &cleaned)
        }

        let algorithm: OTPAlgorithm
        if let name = query["algorithm"], !name.isEmpty {
            guard let parsed = OTPAlgorithm(name: name) else { throw .unsupportedAlgorithm(name) }
            algorithm = parsed
        } else {
            algorithm = .sha1
        }
        let digits = try number(query["digits"], field: "digits") ?? 6

        let kind: OTPKind
        switch type {
        case "totp":
            let period = try number(query["period"], field: "period") ?? OTPKind.defaultPeriod
            kind = .totp(period: period)
        case "hotp":
            guard let counterText = query["counter"], !counterText.isEmpty else { throw .missingCounter }
            guard let counter = UInt64(counterText) else {
                throw .notANumber(field: "counter", value: counterText)
            }
            kind = .hotp(counter: counter)
        case "steam":
            kind = .steam
        default:
            throw .unsupportedType(String(typeText))
        }

        let secretText = query["secret"] ?? ""
        guard !secretText.trimmingSpaces.isEmpty else { throw .invalid(.missingSecret) }
        let secret: Secret
        do { secret = try Secret(base32: secretText) } catch { throw .invalid(.invalidSecret(error)) }

        do {
            let spec: AccountSpec = try AccountSpec(
                issuer: issuer, name: account, secret: secret, kind: kind, algorithm: algorithm,
                digits: digits)
            return (spec, cleaned)
        } catch {
            throw .invalid(error)
        }
    }

    /// Formats account content as a Key URI: `otpauth://TYPE/ISSUER:ACCOUNT?secret=…&issuer=…`.
    /// Parameters at their defaults are still written, so every app reads the same account.
    public static func format(_ spec: AccountSpec) -> String {
        let label =
            spec.issuer.isEmpty
            ? encode(spec.name) : "\(encode(spec.issuer)):\(encode(spec.name))"
        var parameters = ["secret=\(spec.secret.base32)"]
        if !spec.issuer.isEmpty { parameters.append("issuer=\(encode(spec.issuer))") }
        switch spec.kind {
        case .totp(let period):
            parameters += [
                "algorithm=\(spec.algorithm.rawValue)", "digits=\(spec.digits)", "period=\(period)",
            ]
        case .hotp(let counter):
            parameters += [
                "algorithm=\(spec.algorithm.rawValue)", "digits=\(spec.digits)", "counter=\(counter)",
            ]
        case .steam:
            break
        }
        return "otpauth://\(spec.kind.typeName)/\(label)?\(parameters.joined(separator: "&"))"
    }

    // MARK: - Parts

    private static func split(_ text: Substring, at separator: Character) -> (Substring, Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }

    private static func splitLabel(_ label: String) -> (issuer: String, account: String) {
        guard let colon = label.firstIndex(of: ":") else { return ("", label.trimmingSpaces) }
        return (
            String(label[..<colon]).trimmingSpaces,
            String(label[label.index(after: colon)...]).trimmingSpaces
        )
    }

    private static func parameters(_ query: Substring) throws(KeyURIError) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let (rawName, rawValue) = split(pair, at: "=")
            let name = try decode(rawName, field: "parameter name").lowercased()
            // The first occurrence wins, as most apps read it.
            guard result[name] == nil else { continue }
            result[name] = try decode(rawValue ?? "", field: name)
        }
        return result
    }

    private static func number(_ text: String?, field: String) throws(KeyURIError) -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard let value = Int(text) else { throw .notANumber(field: field, value: text) }
        return value
    }

    /// Percent-decoding with `+` as a space.
    static func decode(_ text: Substring, field: String) throws(KeyURIError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(HexDigit.value), let low = iterator.next().flatMap(HexDigit.value)
                else { throw .malformedEncoding(field: field) }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .malformedEncoding(field: field)
        }
        return decoded
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return output
    }
}
