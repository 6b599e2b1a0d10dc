import Domain

/// A 2FAS backup (schema 4): services in the clear, or encrypted in `servicesEncrypted`.
struct TwoFASBackupDTO: Decodable {
    struct Service: Decodable {
        struct OTP: Decodable {
            var label: String?
            var account: String?
            var issuer: String?
            var digits: Int?
            var period: Int?
            var algorithm: String?
            var tokenType: String?
            var counter: UInt64?
        }

        var name: String?
        var secret: String
        var otp: OTP?
        var groupId: String?
        var icon: IconPresence?
    }

    struct Group: Decodable {
        var id: String
        var name: String
    }

    /// Whether an icon was there; its contents are not read.
    struct IconPresence: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    var services: [Service]?
    var servicesEncrypted: String?
    var groups: [Group]?
    var schemaVersion: Int?
}

extension TwoFASBackupDTO.Service {
    func fields(groups: [String: String]) -> InteropCollector.Fields {
        var fields = InteropCollector.Fields()
        fields.issuer = otp?.issuer ?? name ?? ""
        fields.name = otp?.account ?? otp?.label ?? ""
        fields.secretBase32 = secret
        fields.kind = .init(text: otp?.tokenType ?? "TOTP")
        fields.algorithm = .init(text: otp?.algorithm ?? "SHA1")
        fields.digits = otp?.digits ?? 6
        fields.period = otp?.period ?? OTPKind.defaultPeriod
        fields.counter = otp?.counter ?? 0
        fields.groups = groupId.flatMap { groups[$0] }.map { [$0] } ?? []
        return fields
    }
}
