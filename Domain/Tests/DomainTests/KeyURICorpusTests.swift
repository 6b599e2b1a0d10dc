import Domain
import Testing

/// The Key URI corpus: the shapes real apps and sites emit, including the ones other
/// authenticators' parsers got wrong.
@Suite("Key URI corpus")
struct KeyURICorpusTests {
    /// What a corpus URI must parse to.
    struct Parsed: Sendable, CustomStringConvertible {
        var issuer: String
        var name: String
        var secret = "JBSWY3DPEHPK3PXP"
        var kind: OTPKind = .totp(period: 30)
        var algorithm: OTPAlgorithm = .sha1
        var digits = 6
        var description: String { "\(issuer):\(name)" }
    }

    /// One corpus entry: a URI and either what it parses to or the error it must give.
    struct Case: Sendable, CustomTestStringConvertible {
        let title: String
        let uri: String
        let expected: Result<Parsed, KeyURIError>
        var testDescription: String { title }
    }

    static func ok(_ title: String, _ uri: String, _ parsed: Parsed) -> Case {
        Case(title: title, uri: uri, expected: .success(parsed))
    }

    static func fails(_ title: String, _ uri: String, _ error: KeyURIError) -> Case {
        Case(title: title, uri: uri, expected: .failure(error))
    }

    static let corpus: [Case] = [
        // Labels
        ok(
            "issuer and account in the label", "otpauth://totp/ACME:alice?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "ACME", name: "alice")),
        ok(
            "label colon as %3A", "otpauth://totp/ACME%3Aalice?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "ACME", name: "alice")),
        ok(
            "label colon as lowercase %3a", "otpauth://totp/ACME%3aalice?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "ACME", name: "alice")),
        ok(
            "space after the label colon", "otpauth://totp/ACME:%20alice?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "ACME", name: "alice")),
        ok(
            "account only", "otpauth://totp/alice@example.com?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "", name: "alice@example.com")),
        ok(
            "account only with issuer parameter", "otpauth://totp/alice?secret=JBSWY3DPEHPK3PXP&issuer=ACME",
            Parsed(issuer: "ACME", name: "alice")),
        ok(
            "label and parameter agree", "otpauth://totp/ACME:alice?secret=JBSWY3DPEHPK3PXP&issuer=ACME",
            Parsed(issuer: "ACME", name: "alice")),
        ok(
            "issuer conflict: the parameter wins", "otpauth://totp/Old:alice?secret=JBSWY3DPEHPK3PXP&issuer=New",
            Parsed(issuer: "New", name: "alice")),
        ok(
            "empty issuer parameter falls back to the label", "otpauth://totp/ACME:alice?secret=JBSWY3DPEHPK3PXP&issuer=",
            Parsed(issuer: "ACME", name: "alice")),
        ok(
            "%20 in issuer and account", "otpauth://totp/Big%20Corp:Alice%20Smith?secret=JBSWY3DPEHPK3PXP&issuer=Big%20Corp",
            Parsed(issuer: "Big Corp", name: "Alice Smith")),
        ok(
            "+ as a space in the issuer parameter", "otpauth://totp/Big%20Corp:alice?secret=JBSWY3DPEHPK3PXP&issuer=Big+Corp",
            Parsed(issuer: "Big Corp", name: "alice")),
        ok(
            "+ as a space in the label", "otpauth://totp/Big+Corp:alice+smith?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "Big Corp", name: "alice smith")),
        ok(
            "%2B is a literal plus", "otpauth://totp/ACME:alice%2Btag@example.com?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "ACME", name: "alice+tag@example.com")),
        ok(
            "UTF-8 in the label", "otpauth://totp/Caf%C3%A9:Jos%C3%A9?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "Café", name: "José")),
        ok(
            "empty account with an issuer", "otpauth://totp/ACME:?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "ACME", name: "")),
        ok(
            "colon inside the account name", "otpauth://totp/ACME:a:b?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "ACME", name: "a:b")),
        fails("empty label and no issuer", "otpauth://totp/?secret=JBSWY3DPEHPK3PXP", .invalid(.missingName)),
        fails("no label at all", "otpauth://totp?secret=JBSWY3DPEHPK3PXP", .missingLabel),
        fails(
            "broken percent-encoding in the label", "otpauth://totp/ACME%3:alice?secret=JBSWY3DPEHPK3PXP",
            .malformedEncoding(field: "label")),
        // Secrets
        ok(
            "raw = padding", "otpauth://totp/A:b?secret=MZXW6YTBOI======",
            Parsed(issuer: "A", name: "b", secret: "MZXW6YTBOI")),
        ok(
            "padding as %3D", "otpauth://totp/A:b?secret=MZXW6YTBOI%3D%3D%3D%3D%3D%3D",
            Parsed(issuer: "A", name: "b", secret: "MZXW6YTBOI")),
        ok("lowercase secret", "otpauth://totp/A:b?secret=jbswy3dpehpk3pxp", Parsed(issuer: "A", name: "b")),
        ok("secret grouped with %20", "otpauth://totp/A:b?secret=JBSW%20Y3DP%20EHPK%203PXP", Parsed(issuer: "A", name: "b")),
        fails("missing secret", "otpauth://totp/A:b?issuer=A", .invalid(.missingSecret)),
        fails("empty secret", "otpauth://totp/A:b?secret=&issuer=A", .invalid(.missingSecret)),
        fails(
            "secret with a non-Base32 character", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PX1",
            .invalid(.invalidSecret(.invalidCharacter(position: 16)))),
        // Parameters
        ok("defaults: SHA1, 6 digits, 30 s", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP", Parsed(issuer: "A", name: "b")),
        ok(
            "SHA256, 8 digits, 60 s", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&algorithm=SHA256&digits=8&period=60",
            Parsed(issuer: "A", name: "b", kind: .totp(period: 60), algorithm: .sha256, digits: 8)),
        ok(
            "lowercase sha512", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&algorithm=sha512",
            Parsed(issuer: "A", name: "b", algorithm: .sha512)),
        ok("10 digits", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&digits=10", Parsed(issuer: "A", name: "b", digits: 10)),
        ok(
            "unknown parameters ignored", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&image=https%3A%2F%2Fx&foo=bar",
            Parsed(issuer: "A", name: "b")),
        ok(
            "parameter names in any case", "otpauth://totp/A:b?SECRET=JBSWY3DPEHPK3PXP&Digits=8",
            Parsed(issuer: "A", name: "b", digits: 8)),
        ok("upper-case scheme and type", "OTPAUTH://TOTP/A:b?secret=JBSWY3DPEHPK3PXP", Parsed(issuer: "A", name: "b")),
        ok("surrounding whitespace", "  otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP\n", Parsed(issuer: "A", name: "b")),
        fails(
            "digits not a number", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&digits=six",
            .notANumber(field: "digits", value: "six")),
        fails("digits too few", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&digits=5", .invalid(.invalidDigits(5))),
        fails("digits too many", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&digits=11", .invalid(.invalidDigits(11))),
        fails("period 0", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&period=0", .invalid(.invalidPeriod(0))),
        fails("negative period", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&period=-30", .invalid(.invalidPeriod(-30))),
        fails(
            "period not a number", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&period=30s",
            .notANumber(field: "period", value: "30s")),
        fails(
            "unsupported algorithm", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&algorithm=MD5",
            .unsupportedAlgorithm("MD5")),
        // Types
        ok(
            "hotp with counter", "otpauth://hotp/A:b?secret=JBSWY3DPEHPK3PXP&counter=7",
            Parsed(issuer: "A", name: "b", kind: .hotp(counter: 7))),
        ok(
            "hotp with a 64-bit counter", "otpauth://hotp/A:b?secret=JBSWY3DPEHPK3PXP&counter=18446744073709551615",
            Parsed(issuer: "A", name: "b", kind: .hotp(counter: .max))),
        fails("hotp without counter", "otpauth://hotp/A:b?secret=JBSWY3DPEHPK3PXP", .missingCounter),
        fails(
            "hotp with a negative counter", "otpauth://hotp/A:b?secret=JBSWY3DPEHPK3PXP&counter=-1",
            .notANumber(field: "counter", value: "-1")),
        ok(
            "steam type", "otpauth://steam/Steam:gabe?secret=JBSWY3DPEHPK3PXP",
            Parsed(issuer: "Steam", name: "gabe", kind: .steam, digits: 5)),
        ok(
            "steam ignores digits and algorithm", "otpauth://steam/Steam:gabe?secret=JBSWY3DPEHPK3PXP&digits=8&algorithm=SHA256",
            Parsed(issuer: "Steam", name: "gabe", kind: .steam, digits: 5)),
        ok(
            "totp with encoder=steam is Steam", "otpauth://totp/Steam:gabe?secret=JBSWY3DPEHPK3PXP&encoder=steam",
            Parsed(issuer: "Steam", name: "gabe", kind: .steam, digits: 5)),
        fails("unsupported type", "otpauth://motp/A:b?secret=JBSWY3DPEHPK3PXP", .unsupportedType("motp")),
        fails("not an otpauth URI", "https://example.com/?secret=JBSWY3DPEHPK3PXP", .notKeyURI),
        fails("Google migration URI is not a Key URI", "otpauth-migration://offline?data=CjEKCkhlbGxv", .notKeyURI),
        fails("empty text", "", .notKeyURI),
    ]

    @Test("the corpus has at least 40 cases")
    func corpusSize() {
        #expect(Self.corpus.count >= 40)
    }

    @Test("parses or rejects each corpus URI as expected", arguments: corpus)
    func corpusCase(_ entry: Case) throws {
        switch entry.expected {
        case .success(let expected):
            let spec = try KeyURI.parse(entry.uri)
            #expect(spec.issuer == expected.issuer)
            #expect(spec.name == expected.name)
            #expect(spec.secret.base32 == expected.secret)
            #expect(spec.kind == expected.kind)
            #expect(spec.algorithm == expected.algorithm)
            #expect(spec.digits == expected.digits)
        case .failure(let expected):
            #expect(throws: expected) { try KeyURI.parse(entry.uri) }
        }
    }

    @Test("formatting then parsing gives back the same account", arguments: corpus)
    func roundTrip(_ entry: Case) throws {
        guard case .success = entry.expected else { return }
        let spec = try KeyURI.parse(entry.uri)
        #expect(try KeyURI.parse(KeyURI.format(spec)) == spec)
    }

    @Test("formats with the label, issuer and every parameter spelled out")
    func format() throws {
        let spec = try KeyURI.parse("otpauth://totp/Big%20Corp:alice%2B1@x.com?secret=jbswy3dpehpk3pxp&issuer=Big+Corp")
        #expect(
            KeyURI.format(spec)
                == "otpauth://totp/Big%20Corp:alice%2B1@x.com?secret=JBSWY3DPEHPK3PXP&issuer=Big%20Corp&algorithm=SHA1&digits=6&period=30"
        )
    }

    @Test("every error names its field and never quotes the secret")
    func errorsNameTheirField() {
        for entry in Self.corpus {
            guard case .failure(let error) = entry.expected else { continue }
            #expect(!error.field.isEmpty)
            #expect(error.description.hasPrefix(error.field) || error.field == "scheme")
            #expect(!error.description.contains("JBSWY3DPEHPK3PX"))
        }
    }
}
