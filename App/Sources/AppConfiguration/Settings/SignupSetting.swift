/// `server.signup`: who may open a sync account on `tokens-server`: anyone, whoever presents an
/// operator's invitation, or no one (the server's composition gives it to the rules).
public enum SignupSetting: String, CaseIterable, Sendable, Codable {
    case open, invitation, closed

    /// Invitation on a server others can reach (a host other than loopback, or behind a proxy:
    /// `server.proxies`), open on one only this machine can.
    static func standard(host: String, proxies: [String]) -> SignupSetting {
        let loopback = host == "localhost" || host == "::1" || host.hasPrefix("127.")
        return loopback && proxies.isEmpty ? .open : .invitation
    }
}
