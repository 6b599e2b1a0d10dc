/// Who may open a sync account on a server (`server.signup`): anyone (`open`), whoever presents
/// an unused invitation from the operator (`invitation`: `tokens-server admin invite`), or no one
/// (`closed`: the accounts there already go on syncing and enrolling machines).
public enum SignupPolicy: String, Sendable, CaseIterable {
    case open, invitation, closed

    /// How long an invitation stays valid unless the operator says otherwise.
    public static let invitationLifetime: Int64 = 7 * 24 * 3600
}
