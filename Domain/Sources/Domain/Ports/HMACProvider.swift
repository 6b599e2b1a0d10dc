/// Port: computes an HMAC. Data implements it with swift-crypto, so Domain needs no crypto library.
public protocol HMACProvider: Sendable {
    func authenticationCode(
        for message: [UInt8], key: [UInt8], algorithm: OTPAlgorithm
    ) -> [UInt8]
}
